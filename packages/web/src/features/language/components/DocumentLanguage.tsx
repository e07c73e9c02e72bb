import { useEffect } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { selectLanguage } from '../selectors';

/** Keeps <html lang> in step with the interface language (screen readers, fonts, hyphenation). */
export function DocumentLanguage() {
  const { culture } = useAppSelector(selectLanguage);
  useEffect(() => {
    document.documentElement.lang = culture;
  }, [culture]);
  return null;
}
