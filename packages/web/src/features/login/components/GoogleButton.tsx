import { useEffect, useRef, useState } from 'react';
import { Box } from '@chakra-ui/react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { logError } from '../../../services/log';
import { releaseGoogleButton, renderGoogleButton } from '../../../services/googleIdentity';
import { selectLanguage } from '../../language/selectors';
import { googleCredentialReceived } from '../slice';

/** Spec section 9: Google's button is 200 to 400 pixels wide. */
const MIN_WIDTH = 200;
const MAX_WIDTH = 400;

/**
 * Google's own "Sign in with Google" button, drawn by Google Identity Services into this box
 * (the script loads only now). The credential it hands back goes to the saga. If the script
 * cannot load, the box goes away and the failure is only logged (spec section 8).
 */
export function GoogleButton({ clientId }: { clientId: string }) {
  const dispatch = useAppDispatch();
  const { culture } = useAppSelector(selectLanguage);
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const parent = box.current;
    if (!parent) return;
    let active = true;
    const onCredential = (credential: string) => {
      if (active) dispatch(googleCredentialReceived(credential));
    };
    const width = Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, parent.clientWidth || MAX_WIDTH)));
    renderGoogleButton(
      parent,
      clientId,
      { type: 'standard', theme: 'outline', size: 'large', text: 'continue_with', shape: 'rectangular', width, locale: culture },
      onCredential,
    ).catch((error: unknown) => {
      logError('Google sign-in button failed to load', error);
      if (active) setFailed(true);
    });
    return () => {
      active = false;
      releaseGoogleButton(onCredential);
    };
  }, [clientId, culture, dispatch]);

  if (failed) return null;
  // The height of Google's large button is reserved so the page does not jump when it appears.
  return <Box ref={box} data-testid="google-button" w="full" maxW={`${MAX_WIDTH}px`} minH="44px" mx="auto" display="flex" justifyContent="center" />;
}
