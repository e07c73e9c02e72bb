/**
 * /jve/catalog/new and /jve/catalog/{id}: the catalog editor (issue 15). Everything of a
 * platform: texts in English and Korean (name, description, how-it-works points, FAQ), the two
 * brand colours with a live preview of the storefront's card and page header, the logos
 * (uploaded: type and size checked here first, the server's refusal shown), platform type,
 * slots, family invitation, durations and types (add, rename, disable; one with orders cannot be
 * removed), a price and a sale price in EUR and KRW for every duration × type, shown or hidden.
 * Formik with the shared schema (editorForm.ts); a save that meets a newer version shows what
 * changed and lets the admin load it or save theirs over it: never silently. Each section is a
 * component of its own in ../components (TextsSection, LookSection, …); this page loads the
 * platform and composes them in one form with the save bar.
 */
import { useEffect, useMemo, useRef } from 'react';
import { Button, Flex, Stack, Text } from '@chakra-ui/react';
import { Form, Formik } from 'formik';
import { useParams, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../../app/hooks';
import { selectLanguageId } from '../../../language/selectors';
import { useT } from '../../../language/useT';
import { AdminSection } from '../../components/AdminSection';
import { EMPTY_EDITOR, toEditorValues, toWireBody, validateEditor, withRuleFromMail, type EditorValues } from '../editorForm';
import { editorClosed, editorOpened, editorReloadRequested, saveRequested, selectCatalogEditor, type CatalogEditorState } from '../slice';
import { catalogMessages, CATALOG_TEXTS } from '../texts';
import { AlertRulesSection } from '../components/AlertRulesSection';
import { ConflictNotice } from '../components/ConflictNotice';
import { LookSection } from '../components/LookSection';
import { OptionsSection } from '../components/OptionsSection';
import { PricesSection } from '../components/PricesSection';
import { SettingsSection } from '../components/SettingsSection';
import { TextsSection } from '../components/TextsSection';

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
