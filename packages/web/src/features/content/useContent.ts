import { useCallback, useMemo } from 'react';
import { useAppSelector } from '../../app/hooks';
import { selectBusiness } from '../business/selectors';
import { selectLanguageId } from '../language/selectors';
import { CONTENT_TEXTS, fillPlaceholders, type ContentPlaceholders, type ContentTexts } from './texts';

/** The static pages' texts in the interface language, and a filler for their business placeholders. */
export function useContent(): { texts: ContentTexts; fill: (text: string) => string | null } {
  const languageId = useAppSelector(selectLanguageId);
  const business = useAppSelector(selectBusiness);
  const values = useMemo<ContentPlaceholders>(
    () => ({
      // The shop's name is never missing from a sentence: the brand stands in until the details arrive.
      businessName: business?.name || 'subshare',
      representative: business?.representative,
      address: business?.address,
      registrationNumber: business?.registrationNumber,
      mailOrderNumber: business?.mailOrderNumber,
      phone: business?.supportPhone,
      email: business?.supportEmail,
    }),
    [business],
  );
  const fill = useCallback((text: string) => fillPlaceholders(text, values), [values]);
  return { texts: CONTENT_TEXTS[languageId], fill };
}
