/**
 * One logo of the catalog editor: its URL field, the upload (type and size checked here first,
 * the server's refusal shown) and the image on the platform's colour.
 */
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { Box, Button, Flex, Stack, Text } from '@chakra-ui/react';
import { useFormikContext } from 'formik';
import { useAppDispatch, useAppSelector } from '../../../../app/hooks';
import { FormField } from '../../../../components/ui/FormField';
import { useT } from '../../../language/useT';
import { LOGO_MAX_BYTES, LOGO_TYPES, type EditorValues } from '../editorForm';
import { logoUploadFailed, logoUploadRequested, selectCatalogUploads, type LogoField } from '../slice';
import { CATALOG_TEXTS } from '../texts';

export function LogoField({ field, label }: { field: LogoField; label: string }) {
  const t = useT(CATALOG_TEXTS);
  const dispatch = useAppDispatch();
  const upload = useAppSelector(selectCatalogUploads)[field];
  const { values, setFieldValue, setFieldTouched } = useFormikContext<EditorValues>();
  const input = useRef<HTMLInputElement>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const size = `${LOGO_MAX_BYTES / 1024} KiB`;

  // An upload done: its URL becomes the field's value (once per answer).
  const taken = useRef<string | null>(null);
  useEffect(() => {
    if (upload.status === 'done' && upload.answer && taken.current !== upload.answer.url) {
      taken.current = upload.answer.url;
      void setFieldValue(field, upload.answer.url);
      void setFieldTouched(field, true, false);
    }
  }, [upload, field, setFieldValue, setFieldTouched]);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!Object.hasOwn(LOGO_TYPES, file.type)) {
      setLocalError(t('catalog.uploadType'));
      dispatch(logoUploadFailed({ field, error: '' }));
      return;
    }
    if (file.size > LOGO_MAX_BYTES) {
      setLocalError(t('catalog.uploadSize', { size }));
      dispatch(logoUploadFailed({ field, error: '' }));
      return;
    }
    setLocalError(null);
    dispatch(logoUploadRequested({ field, file }));
  };

  const error = localError ?? (upload.status === 'failed' ? upload.error : null);
  return (
    <Stack gap="2" data-testid={`admin-catalog-${field}-upload`} data-status={upload.status}>
      <FormField name={field} label={label} testId={`admin-catalog-${field}`} helperText={t('catalog.uploadHint', { size })} required />
      <Flex gap="3" align="center" wrap="wrap">
        {values[field] && (
          <Box bg={values.colorOne} p="2" borderRadius="md">
            <img data-testid={`admin-catalog-${field}-image`} src={values[field]} alt="" style={{ height: 32, width: 96, objectFit: 'contain' }} />
          </Box>
        )}
        <input ref={input} type="file" hidden accept={Object.keys(LOGO_TYPES).join(',')} data-testid={`admin-catalog-${field}-file`} onChange={choose} />
        <Button size="sm" variant="outline" loading={upload.status === 'uploading'} loadingText={t('catalog.uploading')} onClick={() => input.current?.click()}>
          {t('catalog.upload')}
        </Button>
      </Flex>
      {error && (
        <Text data-testid={`admin-catalog-${field}-upload-error`} role="alert" color="fg.error" fontSize="sm">
          {error}
        </Text>
      )}
      {upload.status === 'done' && upload.answer?.sanitized && (
        <Text data-testid={`admin-catalog-${field}-sanitized`} fontSize="sm" color="fg.muted">
          {t('catalog.uploadSanitized')}
        </Text>
      )}
    </Stack>
  );
}
