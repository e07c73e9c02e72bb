import { useEffect, useState } from 'react';
import { Button, Flex, chakra } from '@chakra-ui/react';
import { PANEL_TEXTS } from '../texts';
import { useT } from '../../language/useT';

/** True where the page may write to the clipboard (a secure context with the async clipboard). */
const canCopy = () => typeof navigator !== 'undefined' && Boolean(navigator.clipboard?.writeText) && window.isSecureContext;

/** Copies `value`; says 'Copied' for a moment (also to screen readers). */
export function CopyButton({ value, label, testId }: { value: string; label: string; testId: string }) {
  const t = useT(PANEL_TEXTS);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), 2000);
    return () => window.clearTimeout(timer);
  }, [copied]);
  if (!canCopy()) return null;

  const copy = () => {
    navigator.clipboard.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <Button data-testid={testId} variant="outline" size="xs" aria-label={label} onClick={copy}>
      <chakra.span aria-live="polite">{copied ? t('panel.copied') : label}</chakra.span>
    </Button>
  );
}

/** A credential the buyer reads or copies: the username as it is. `copyable` false: no Copy button (an account being repaired). */
export function Username({ value, copyable = true }: { value: string; copyable?: boolean }) {
  const t = useT(PANEL_TEXTS);
  return (
    <Flex align="center" gap="2" wrap="wrap">
      <chakra.span data-testid="panel-username" overflowWrap="anywhere">
        {value}
      </chakra.span>
      {copyable && <CopyButton value={value} label={t('panel.copyUsername')} testId="panel-copy-username" />}
    </Flex>
  );
}

/** The account password: hidden until the buyer shows it, and copyable either way (unless `copyable` is false). */
export function Password({ value, copyable = true }: { value: string; copyable?: boolean }) {
  const t = useT(PANEL_TEXTS);
  const [shown, setShown] = useState(false);
  return (
    <Flex align="center" gap="2" wrap="wrap">
      <chakra.span data-testid="panel-password" data-shown={shown} fontFamily="mono" overflowWrap="anywhere">
        {shown ? value : '••••••••'}
      </chakra.span>
      <Button
        data-testid="panel-password-toggle"
        variant="outline"
        size="xs"
        aria-pressed={shown}
        aria-label={shown ? t('panel.hidePassword') : t('panel.showPassword')}
        onClick={() => setShown((current) => !current)}
      >
        {shown ? t('panel.hidePassword') : t('panel.showPassword')}
      </Button>
      {copyable && <CopyButton value={value} label={t('panel.copyPassword')} testId="panel-copy-password" />}
    </Flex>
  );
}
