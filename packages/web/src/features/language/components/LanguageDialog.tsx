import { Button, CloseButton, Dialog, Portal, Stack } from '@chakra-ui/react';
import { useAppDispatch } from '../../../app/hooks';
import { LANGUAGES } from '../languages';
import { languageChosen } from '../slice';
import { useT } from '../useT';

interface LanguageDialogProps {
  onClose: () => void;
}

/** Spec: a 400px dialog with the buttons English and Korean; a choice is stored and the page reloads. */
export default function LanguageDialog({ onClose }: LanguageDialogProps) {
  const t = useT();
  const dispatch = useAppDispatch();

  return (
    <Dialog.Root open onOpenChange={(details) => !details.open && onClose()} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="language-dialog" w="400px" maxW="calc(100vw - 2rem)">
            <Dialog.Header>
              <Dialog.Title>{t('language.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body pb="6">
              <Stack gap="3">
                {LANGUAGES.map((language) => (
                  <Button
                    key={language.id}
                    data-testid={`language-option-${language.culture}`}
                    lang={language.culture}
                    variant="outline"
                    size="lg"
                    onClick={() => dispatch(languageChosen(language.id))}
                  >
                    {language.name}
                  </Button>
                ))}
              </Stack>
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
