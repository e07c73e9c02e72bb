/**
 * /jve/catalog/new and /jve/catalog/{id}: the catalog editor (issue 15). Everything of a
 * platform: texts in English and Korean (name, description, how-it-works points, FAQ), the two
 * brand colours with a live preview of the storefront's card and page header, the logos
 * (uploaded: type and size checked here first, the server's refusal shown), platform type,
 * slots, family invitation, durations and types (add, rename, disable; one with orders cannot be
 * removed), a price and a sale price in EUR and KRW for every duration × type, shown or hidden.
 * Formik with the shared schema (editorForm.ts); a save that meets a newer version shows what
 * changed and lets the admin load it or save theirs over it: never silently.
 */
import { useEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { Box, Button, Flex, Grid, Heading, Input, Stack, Text } from '@chakra-ui/react';
import { FieldArray, Form, Formik, getIn, useFormikContext } from 'formik';
import { useParams, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../../app/hooks';
import { FormField } from '../../../../components/ui/FormField';
import { selectLanguage, selectLanguageId } from '../../../language/selectors';
import { useT } from '../../../language/useT';
import { AdminSection } from '../../components/AdminSection';
import { formatDateTime } from '../../format';
import { PlatformPreview } from '../components/PlatformPreview';
import {
  ALERT_KINDS,
  EMPTY_EDITOR,
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  newKey,
  pricePairs,
  toEditorValues,
  toWireBody,
  validateEditor,
  withRuleFromMail,
  type EditorValues,
} from '../editorForm';
import {
  conflictReloaded,
  editorClosed,
  editorOpened,
  editorReloadRequested,
  logoUploadFailed,
  logoUploadRequested,
  saveRequested,
  selectCatalogEditor,
  selectCatalogUploads,
  type CatalogEditorState,
  type LogoField,
} from '../slice';
import { catalogMessages, CATALOG_TEXTS, type CatalogTextKey } from '../texts';

export default function PlatformEditorPage() {
  const t = useT(CATALOG_TEXTS);
  const dispatch = useAppDispatch();
  const param = useParams().id;
  const id = param === undefined ? null : /^\d+$/.test(param) ? Number(param) : -1;
  const editor = useAppSelector(selectCatalogEditor);

  const languageId = useAppSelector(selectLanguageId);

  useEffect(() => {
    if (id === -1) return;
    dispatch(editorOpened(id));
    return () => {
      dispatch(editorClosed());
    };
  }, [dispatch, id]);

  const name = editor.platform ? (languageId === 2 ? editor.platform.name.ko : '') || editor.platform.name.en : '';
  const title = editor.platform ? t('catalog.editTitle', { name }) : t('catalog.newTitle');
  if (id === -1 || editor.status === 'notFound') {
    return <AdminSection testId="admin-catalog-editor" title={t('catalog.notFound')} data={{ 'data-status': 'notFound' }} />;
  }
  return (
    <AdminSection testId="admin-catalog-editor" title={title} data={{ 'data-status': editor.status, 'data-platform-id': editor.platform?.id }}>
      {editor.status === 'failed' && (
        <Flex role="alert" gap="3" align="center" wrap="wrap" p="3" borderRadius="md" bg="bg.error" color="fg.error">
          <Text>{t('catalog.loadFailed')}</Text>
          {editor.retryable && (
            <Button size="sm" variant="outline" onClick={() => dispatch(editorReloadRequested())}>
              {t('catalog.retry')}
            </Button>
          )}
        </Flex>
      )}
      {editor.status === 'loaded' && <EditorForm key={editor.loads} editor={editor} />}
    </AdminSection>
  );
}

function EditorForm({ editor }: { editor: CatalogEditorState['editor'] }) {
  const t = useT(CATALOG_TEXTS);
  const dispatch = useAppDispatch();
  const messages = useMemo(() => catalogMessages(t), [t]);
  // Opened from /jve/health's "make a rule from this mail": the mail's subject and sender prefill a new rule.
  const [search] = useSearchParams();
  const fromMail = search.get('ruleSubject');
  const fromSender = search.get('ruleSender') ?? '';
  const initialValues = useMemo(() => {
    const values = editor.platform ? toEditorValues(editor.platform) : EMPTY_EDITOR;
    return fromMail ? withRuleFromMail(values, { subject: fromMail, sender: fromSender }) : values;
  }, [editor.platform, fromMail, fromSender]);
  const saveBar = useKeepFocusAboveBar();
  return (
    <Formik<EditorValues>
      initialValues={initialValues}
      validate={(values) => validateEditor(values, messages)}
      onSubmit={(values) => {
        dispatch(saveRequested({ body: toWireBody(values).body }));
      }}
    >
      {({ submitCount, isValid }) => (
        <Form noValidate data-testid="admin-catalog-form">
          <Stack gap="8">
            {editor.conflict && <ConflictNotice editor={editor} />}
            <TextsSection />
            <LookSection />
            <SettingsSection activeAccounts={editor.platform?.activeAccounts ?? 0} />
            <OptionsSection kind="durations" />
            <OptionsSection kind="types" />
            <PricesSection />
            <AlertRulesSection />
            <Flex
              ref={saveBar}
              data-testid="admin-catalog-save-bar"
              gap="3"
              align="center"
              wrap="wrap"
              position="sticky"
              bottom="0"
              bg="bg"
              py="3"
              borderTopWidth="1px"
            >
              <Button data-testid="admin-catalog-save" type="submit" colorPalette="purple" loading={editor.saving} loadingText={t('catalog.saving')}>
                {t(editor.platform ? 'catalog.save' : 'catalog.create')}
              </Button>
              {submitCount > 0 && !isValid && (
                <Text data-testid="admin-catalog-invalid" role="alert" color="fg.error">
                  {t('catalog.invalid')}
                </Text>
              )}
              <Text fontSize="sm" color="fg.muted" data-testid="admin-catalog-version">
                {editor.platform ? `v${editor.platform.version}` : ''}
              </Text>
            </Flex>
          </Stack>
        </Form>
      )}
    </Formik>
  );
}

/**
 * WCAG 2.4.11 (focus not obscured): the save bar sticks to the bottom of the window, so a control
 * that focus scrolls into view at the bottom edge would sit under it. While the editor is open,
 * the page's scroll padding at the bottom is the bar's height (it wraps to two rows on a phone,
 * so it is measured, and again when it resizes): the browser then scrolls focus above the bar.
 */
function useKeepFocusAboveBar() {
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = bar.current;
    if (!element) return;
    const root = document.documentElement;
    const pad = () => {
      root.style.scrollPaddingBottom = `${element.offsetHeight + 8}px`;
    };
    pad();
    const observer = new ResizeObserver(pad);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.scrollPaddingBottom = '';
    };
  }, []);
  return bar;
}

/** 409: another admin saved first. What differs, and two ways on; nothing was overwritten. */
function ConflictNotice({ editor }: { editor: CatalogEditorState['editor'] }) {
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

function Section({ title, testId, children }: { title: string; testId: string; children: React.ReactNode }) {
  return (
    <Stack as="section" data-testid={testId} gap="4" aria-label={title}>
      <Heading as="h2" size="lg">
        {title}
      </Heading>
      {children}
    </Stack>
  );
}

/** Two fields side by side on a wide screen (English | Korean), one above the other on a phone. */
function Pair({ children }: { children: React.ReactNode }) {
  return (
    <Grid templateColumns={{ base: '1fr', md: '1fr 1fr' }} gap="3">
      {children}
    </Grid>
  );
}

function Localized({ name, label, multiline }: { name: string; label: string; multiline?: number }) {
  const t = useT(CATALOG_TEXTS);
  const testId = `admin-catalog-${name.replace(/[[\].]+/g, '-').replace(/-$/, '')}`;
  return (
    <Pair>
      <FormField name={`${name}.en`} label={`${label} (${t('catalog.english')})`} testId={`${testId}-en`} multiline={multiline} required />
      <FormField name={`${name}.ko`} label={`${label} (${t('catalog.korean')})`} testId={`${testId}-ko`} multiline={multiline} required />
    </Pair>
  );
}

/** An error of a whole list ("add at least one", too many), shown under it. */
function ListError({ name }: { name: string }) {
  const { errors, submitCount } = useFormikContext<EditorValues>();
  const error = getIn(errors, name);
  if (typeof error !== 'string' || submitCount === 0) return null;
  return (
    <Text data-testid={`field-error-${name}`} role="alert" color="fg.error" fontSize="sm">
      {error}
    </Text>
  );
}

function TextsSection() {
  const t = useT(CATALOG_TEXTS);
  const { values } = useFormikContext<EditorValues>();
  return (
    <Section title={t('catalog.section.texts')} testId="admin-catalog-texts">
      <Localized name="name" label={t('catalog.name')} />
      <Localized name="description" label={t('catalog.description')} multiline={4} />
      <FieldArray name="howItWorks">
        {({ push, remove }) => (
          <Stack gap="3">
            <Heading as="h3" size="md">
              {t('catalog.section.howItWorks')}
            </Heading>
            {values.howItWorks.map((_, index) => (
              <Stack key={index} gap="2" data-testid="admin-catalog-point">
                <Localized name={`howItWorks[${index}]`} label={t('catalog.point', { n: index + 1 })} />
                <Button alignSelf="start" size="xs" variant="ghost" onClick={() => remove(index)}>
                  {t('catalog.remove')}
                </Button>
              </Stack>
            ))}
            <ListError name="howItWorks" />
            <Button data-testid="admin-catalog-add-point" alignSelf="start" size="sm" variant="outline" onClick={() => push({ en: '', ko: '' })}>
              {t('catalog.addPoint')}
            </Button>
          </Stack>
        )}
      </FieldArray>
      <FieldArray name="faq">
        {({ push, remove }) => (
          <Stack gap="3">
            <Heading as="h3" size="md">
              {t('catalog.section.faq')}
            </Heading>
            {values.faq.map((_, index) => (
              <Stack key={index} gap="2" data-testid="admin-catalog-faq-item">
                <Localized name={`faq[${index}].question`} label={t('catalog.question', { n: index + 1 })} />
                <Localized name={`faq[${index}].answer`} label={t('catalog.answer', { n: index + 1 })} multiline={3} />
                <Button alignSelf="start" size="xs" variant="ghost" onClick={() => remove(index)}>
                  {t('catalog.remove')}
                </Button>
              </Stack>
            ))}
            <ListError name="faq" />
            <Button
              data-testid="admin-catalog-add-faq"
              alignSelf="start"
              size="sm"
              variant="outline"
              onClick={() => push({ question: { en: '', ko: '' }, answer: { en: '', ko: '' } })}
            >
              {t('catalog.addFaq')}
            </Button>
          </Stack>
        )}
      </FieldArray>
    </Section>
  );
}

function ColorField({ name, label }: { name: 'colorOne' | 'colorTwo'; label: string }) {
  const { values, setFieldValue } = useFormikContext<EditorValues>();
  const valid = /^#[0-9a-fA-F]{6}$/.test(values[name]);
  return (
    <Flex gap="2" align="end">
      <Box flex="1">
        <FormField name={name} label={label} testId={`admin-catalog-${name}`} required />
      </Box>
      <Input
        type="color"
        aria-label={label}
        data-testid={`admin-catalog-${name}-picker`}
        value={valid ? values[name].toLowerCase() : '#000000'}
        onChange={(event) => void setFieldValue(name, event.target.value)}
        w="14"
        h="12"
        p="1"
      />
    </Flex>
  );
}

function LogoField({ field, label }: { field: LogoField; label: string }) {
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

function LookSection() {
  const t = useT(CATALOG_TEXTS);
  const { values } = useFormikContext<EditorValues>();
  const languageId = useAppSelector(selectLanguageId);
  return (
    <Section title={t('catalog.section.look')} testId="admin-catalog-look">
      <Pair>
        <ColorField name="colorOne" label={t('catalog.colorOne')} />
        <ColorField name="colorTwo" label={t('catalog.colorTwo')} />
      </Pair>
      <Pair>
        <LogoField field="logoBase" label={t('catalog.logoBase')} />
        <LogoField field="logoCarousel" label={t('catalog.logoCarousel')} />
      </Pair>
      <Heading as="h3" size="md">
        {t('catalog.section.preview')}
      </Heading>
      <PlatformPreview values={values} languageId={languageId} />
    </Section>
  );
}

/**
 * `activeAccounts`: accounts behind the platform (none for a new one). Shown in the shop with
 * none, a buyer pays and waits for staff: the editor says so beside the switch, before saving.
 */
function SettingsSection({ activeAccounts }: { activeAccounts: number }) {
  const t = useT(CATALOG_TEXTS);
  const { values } = useFormikContext<EditorValues>();
  return (
    <Section title={t('catalog.section.settings')} testId="admin-catalog-settings">
      <Pair>
        <FormField
          type="select"
          name="category"
          label={t('catalog.category')}
          testId="admin-catalog-category"
          required
          options={(['0', '1', '8'] as const).map((value) => ({ value, label: t(`catalog.category.${value}`) }))}
        />
        <FormField name="slotsCount" label={t('catalog.slotsCount')} testId="admin-catalog-slotsCount" inputMode="numeric" required />
      </Pair>
      <FormField type="checkbox" name="needsInvitation" label={t('catalog.needsInvitation')} testId="admin-catalog-needsInvitation" />
      <FormField type="checkbox" name="isEnabled" label={t('catalog.isEnabled')} testId="admin-catalog-isEnabled" />
      {values.isEnabled && activeAccounts === 0 && (
        <Text
          data-testid="admin-catalog-no-accounts"
          role="status"
          p="3"
          borderRadius="md"
          bg="bg.warning"
          color="fg"
          borderLeftWidth="4px"
          borderColor="border.warning"
        >
          {t('catalog.noAccountsWarning')}
        </Text>
      )}
    </Section>
  );
}

function OptionsSection({ kind }: { kind: 'durations' | 'types' }) {
  const t = useT(CATALOG_TEXTS);
  const { values } = useFormikContext<EditorValues>();
  const items = values[kind];
  const single = kind === 'durations' ? 'duration' : 'type';
  return (
    <Section title={t(kind === 'durations' ? 'catalog.section.durations' : 'catalog.section.types')} testId={`admin-catalog-${kind}`}>
      <FieldArray name={kind}>
        {({ push, remove }) => (
          <Stack gap="3">
            {items.map((item, index) => (
              <Stack
                key={item.key}
                gap="2"
                data-testid={`admin-catalog-${single}`}
                data-key={item.key}
                data-has-orders={item.hasOrders}
                borderWidth="1px"
                borderRadius="md"
                p="3"
              >
                <Localized name={`${kind}[${index}].name`} label={t('catalog.name')} />
                <Flex gap="4" align="end" wrap="wrap">
                  {kind === 'durations' && (
                    <Box w="32">
                      <FormField
                        name={`durations[${index}].months`}
                        label={t('catalog.months')}
                        testId={`admin-catalog-durations-${index}-months`}
                        inputMode="numeric"
                        required
                      />
                    </Box>
                  )}
                  <FormField
                    type="checkbox"
                    name={`${kind}[${index}].isEnabled`}
                    label={t('catalog.optionEnabled')}
                    testId={`admin-catalog-${kind}-${index}-enabled`}
                  />
                  {item.hasOrders ? (
                    <Text data-testid={`admin-catalog-${single}-has-orders`} fontSize="sm" color="fg.muted">
                      {t('catalog.hasOrders')}
                    </Text>
                  ) : (
                    <Button data-testid={`admin-catalog-${single}-remove`} size="xs" variant="ghost" onClick={() => remove(index)}>
                      {t('catalog.remove')}
                    </Button>
                  )}
                </Flex>
              </Stack>
            ))}
            <ListError name={kind} />
            <Button
              data-testid={`admin-catalog-add-${single}`}
              alignSelf="start"
              size="sm"
              variant="outline"
              onClick={() =>
                push(
                  kind === 'durations'
                    ? { key: newKey(items), name: { en: '', ko: '' }, months: '', isEnabled: true, hasOrders: false }
                    : { key: newKey(items), name: { en: '', ko: '' }, isEnabled: true, hasOrders: false },
                )
              }
            >
              {t(kind === 'durations' ? 'catalog.addDuration' : 'catalog.addType')}
            </Button>
          </Stack>
        )}
      </FieldArray>
    </Section>
  );
}

function PricesSection() {
  const t = useT(CATALOG_TEXTS);
  const { values } = useFormikContext<EditorValues>();
  const languageId = useAppSelector(selectLanguageId);
  const text = (value: { en: string; ko: string }) => (languageId === 2 ? value.ko || value.en : value.en || value.ko);
  const pairs = pricePairs(values);
  return (
    <Section title={t('catalog.section.prices')} testId="admin-catalog-prices">
      <Text fontSize="sm" color="fg.muted">
        {t('catalog.pricesHint')}
      </Text>
      {pairs.length === 0 && <Text>{t('catalog.noPairs')}</Text>}
      <ListError name="prices" />
      {pairs.map((pair) => {
        const name = (currency: 'eur' | 'krw', part: 'price' | 'salePrice') => `prices.${pair.key}.${currency}.${part}`;
        const label = (currency: 'EUR' | 'KRW', part: 'price' | 'salePrice') => `${t(part === 'price' ? 'catalog.price' : 'catalog.salePrice')} (${currency})`;
        return (
          <Stack
            key={pair.key}
            gap="2"
            data-testid="admin-catalog-price"
            data-duration-key={pair.duration.key}
            data-type-key={pair.type.key}
            data-enabled={pair.enabled}
            borderWidth="1px"
            borderRadius="md"
            p="3"
            opacity={pair.enabled ? 1 : 0.6}
          >
            <Text fontWeight="semibold">
              {text(pair.duration.name) || `${pair.duration.months}`} × {text(pair.type.name) || '…'}
              {!pair.enabled && ` (${t('catalog.pairDisabled')})`}
            </Text>
            <Grid templateColumns={{ base: '1fr 1fr', md: 'repeat(4, 1fr)' }} gap="3">
              <FormField name={name('eur', 'price')} label={label('EUR', 'price')} testId={`admin-catalog-price-eur-price`} inputMode="decimal" />
              <FormField name={name('eur', 'salePrice')} label={label('EUR', 'salePrice')} testId={`admin-catalog-price-eur-sale`} inputMode="decimal" />
              <FormField name={name('krw', 'price')} label={label('KRW', 'price')} testId={`admin-catalog-price-krw-price`} inputMode="numeric" />
              <FormField name={name('krw', 'salePrice')} label={label('KRW', 'salePrice')} testId={`admin-catalog-price-krw-sale`} inputMode="numeric" />
            </Grid>
          </Stack>
        );
      })}
    </Section>
  );
}

/** The platform's account-alert rules (issue 29): senders, then rules tried in order, phrases one a line. */
function AlertRulesSection() {
  const t = useT(CATALOG_TEXTS);
  const { values } = useFormikContext<EditorValues>();
  return (
    <Section title={t('catalog.section.alerts')} testId="admin-catalog-alerts">
      <Text fontSize="sm" color="fg.muted">
        {t('catalog.alerts.help')}
      </Text>
      <FormField name="alertSenders" label={t('catalog.alerts.senders')} testId="admin-catalog-alertSenders" multiline={2} />
      <FormField name="alertLinkHosts" label={t('catalog.alerts.linkHosts')} testId="admin-catalog-alertLinkHosts" multiline={2} />
      <FieldArray name="alertRules">
        {({ push, remove }) => (
          <Stack gap="3">
            {values.alertRules.map((_, index) => (
              <Stack key={index} gap="2" data-testid="admin-catalog-alert-rule">
                <Heading as="h3" size="sm">
                  {t('catalog.alerts.rule', { n: index + 1 })}
                </Heading>
                <FormField
                  type="select"
                  name={`alertRules[${index}].kind`}
                  label={t('catalog.alerts.kind')}
                  testId={`admin-catalog-alertRules-${index}-kind`}
                  required
                  options={ALERT_KINDS.map((kind) => ({ value: kind, label: t(`catalog.alerts.kind.${kind}`) }))}
                />
                <Pair>
                  <FormField
                    name={`alertRules[${index}].subject`}
                    label={t('catalog.alerts.subject')}
                    testId={`admin-catalog-alertRules-${index}-subject`}
                    multiline={3}
                  />
                  <FormField
                    name={`alertRules[${index}].body`}
                    label={t('catalog.alerts.body')}
                    testId={`admin-catalog-alertRules-${index}-body`}
                    multiline={3}
                  />
                </Pair>
                <Button alignSelf="start" size="xs" variant="ghost" onClick={() => remove(index)}>
                  {t('catalog.remove')}
                </Button>
              </Stack>
            ))}
            <Button
              data-testid="admin-catalog-add-alert-rule"
              alignSelf="start"
              size="sm"
              variant="outline"
              onClick={() => push({ kind: 'passwordChanged', subject: '', body: '' })}
            >
              {t('catalog.alerts.add')}
            </Button>
          </Stack>
        )}
      </FieldArray>
    </Section>
  );
}
