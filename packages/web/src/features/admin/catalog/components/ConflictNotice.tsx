/**
 * The catalog editor's conflict notice (409: another admin saved first): what differs, reload
 * theirs or save ours over it. Nothing is overwritten silently.
 */
import { useMemo } from 'react';
import { Box, Button, Flex, Heading, Text } from '@chakra-ui/react';
import { useFormikContext } from 'formik';
import { useAppDispatch, useAppSelector } from '../../../../app/hooks';
import { selectLanguage } from '../../../language/selectors';
import { useT } from '../../../language/useT';
import { formatDateTime } from '../../format';
import { toWireBody, validateEditor, type EditorValues } from '../editorForm';
import { conflictReloaded, saveRequested, type CatalogEditorState } from '../slice';
import { catalogMessages, CATALOG_TEXTS, type CatalogTextKey } from '../texts';

/** 409: another admin saved first. What differs, and two ways on; nothing was overwritten. */
export function ConflictNotice({ editor }: { editor: CatalogEditorState['editor'] }) {
  const t = useT(CATALOG_TEXTS);
  const dispatch = useAppDispatch();
  const { values, submitForm } = useFormikContext<EditorValues>();
  const messages = useMemo(() => catalogMessages(t), [t]);
  const { culture } = useAppSelector(selectLanguage);
  const conflict = editor.conflict!;
  const fields = conflict.fields.map((field) => {
    const key = `catalog.field.${field}` as CatalogTextKey;
    return CATALOG_TEXTS[1][key] ? t(key) : field;
  });
  return (
    <Box
      data-testid="admin-catalog-conflict"
      data-fields={conflict.fields.join(',')}
      role="alert"
      borderWidth="1px"
      borderColor="orange.300"
      bg="orange.50"
      p="4"
      borderRadius="md"
    >
      <Heading as="h2" size="md" mb="2">
        {t('catalog.conflictTitle')}
      </Heading>
      <Text data-testid="admin-catalog-conflict-text" mb="3">
        {t('catalog.conflictText', { time: formatDateTime(conflict.current.updatedAt, culture), fields: fields.join(', ') || '—' })}
      </Text>
      <Flex gap="2" wrap="wrap">
        <Button data-testid="admin-catalog-conflict-reload" variant="outline" onClick={() => dispatch(conflictReloaded())}>
          {t('catalog.conflictReload')}
        </Button>
        <Button
          data-testid="admin-catalog-conflict-reapply"
          colorPalette="orange"
          loading={editor.saving}
          onClick={() => {
            // The same checks as Save: an invalid form shows its errors (and sends nothing).
            if (Object.keys(validateEditor(values, messages)).length > 0) void submitForm();
            else dispatch(saveRequested({ body: toWireBody(values).body, overVersion: conflict.version }));
          }}
        >
          {t('catalog.conflictReapply')}
        </Button>
      </Flex>
    </Box>
  );
}
