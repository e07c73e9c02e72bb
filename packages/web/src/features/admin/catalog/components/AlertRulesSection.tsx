/**
 * The catalog editor's account-alert rules (issue 29): the senders and link hosts of the
 * platform's mails, then the rules tried in order.
 */
import { Button, Heading, Stack, Text } from '@chakra-ui/react';
import { FieldArray, useFormikContext } from 'formik';
import { FormField } from '../../../../components/ui/FormField';
import { useT } from '../../../language/useT';
import { ALERT_KINDS, type EditorValues } from '../editorForm';
import { CATALOG_TEXTS } from '../texts';
import { Pair, Section } from './EditorSection';

/** The platform's account-alert rules (issue 29): senders, then rules tried in order, phrases one a line. */
export function AlertRulesSection() {
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
