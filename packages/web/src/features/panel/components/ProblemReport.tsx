import { useMemo, useState } from 'react';
import { Box, Button, Flex, Stack, Text, chakra } from '@chakra-ui/react';
import { PROBLEM_KINDS, PROBLEM_NOTE_MAX, problemReportSchema, type ProblemKind } from '@subshare/core/validation';
import { Form, Formik } from 'formik';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { FormField } from '../../../components/ui/FormField';
import type { PanelItem, ProblemHelp } from '../../../services/api/panel';
import { useValidationMessages } from '../../language/useValidationMessages';
import { useT } from '../../language/useT';
import { selectProblemReports } from '../selectors';
import { problemReportSubmitted } from '../slice';
import { PANEL_TEXTS, type PanelTextKey } from '../texts';

const HOUSEHOLD_STEPS: PanelTextKey[] = ['panel.householdStep1', 'panel.householdStep2', 'panel.householdStep3', 'panel.householdStep4'];

/**
 * "It doesn't work" (issue 33) on an active subscription: a small form (what happens, an optional
 * note); once sent, the self-help the server answered appears at once: the login to use (or that
 * it may not work while the account is repaired), the household or login-code steps, and that
 * we are checking. Another report of the same subscription within the hour is refused with why.
 */
export function ProblemReport({ item }: { item: PanelItem }) {
  const t = useT(PANEL_TEXTS);
  const dispatch = useAppDispatch();
  const messages = useValidationMessages();
  const schema = useMemo(() => problemReportSchema(messages), [messages]);
  const [open, setOpen] = useState(false);
  const reports = useAppSelector(selectProblemReports);
  const state = item.subscribeId === null ? undefined : reports[item.subscribeId];
  if (item.subscribeId === null) return null;
  const subscriptionId = item.subscribeId;
  if (state?.status === 'sent' && state.help) return <SelfHelp help={state.help} />;
  if (!open) {
    return (
      <Box>
        <Button size="sm" variant="outline" colorPalette="red" data-testid="panel-problem-open" onClick={() => setOpen(true)}>
          {t('panel.problemOpen')}
        </Button>
      </Box>
    );
  }
  const submitting = state?.status === 'submitting';
  return (
    <Stack gap="3" borderWidth="1px" borderRadius="md" p="4" data-testid="panel-problem">
      <Formik
        initialValues={{ kind: '', note: '' }}
        validationSchema={schema}
        onSubmit={(values) => {
          const cast = schema.cast(values);
          dispatch(problemReportSubmitted({ subscriptionId, kind: cast.kind as ProblemKind, note: cast.note ? cast.note : undefined }));
        }}
      >
        <Form noValidate data-testid="panel-problem-form" aria-label={t('panel.problemLabel', { platform: item.platformName })}>
          <Stack gap="3">
            <FormField
              type="select"
              name="kind"
              label={t('panel.problemKind')}
              testId="panel-problem-kind"
              placeholder={t('panel.problemChoose')}
              options={PROBLEM_KINDS.map((kind) => ({ value: kind, label: t(`panel.problem.${kind}`) }))}
              required
              disabled={submitting}
            />
            <FormField
              name="note"
              label={t('panel.problemNote')}
              testId="panel-problem-note"
              multiline={3}
              counter={{ max: PROBLEM_NOTE_MAX, testId: 'panel-problem-note-count' }}
              disabled={submitting}
            />
            <Flex gap="3" wrap="wrap">
              <Button type="submit" colorPalette="purple" data-testid="panel-problem-send" loading={submitting}>
                {t('panel.problemSend')}
              </Button>
              <Button variant="ghost" onClick={() => setOpen(false)} disabled={submitting}>
                {t('panel.problemCancel')}
              </Button>
            </Flex>
          </Stack>
        </Form>
      </Formik>
      {state?.status === 'failed' && (
        <Text data-testid="panel-problem-error" role="alert" color="fg.error" fontSize="sm">
          {state.message}
        </Text>
      )}
    </Stack>
  );
}

/** What the buyer can try now, and that we are on it. */
function SelfHelp({ help }: { help: ProblemHelp }) {
  const t = useT(PANEL_TEXTS);
  const { loginEmail, mayNotWork } = help.credentials;
  return (
    <Stack gap="2" role="status" borderWidth="1px" borderRadius="md" p="4" bg="purple.subtle" data-testid="panel-problem-help" data-help={help.help}>
      <Text fontWeight="semibold" data-testid="panel-problem-checking">
        {t('panel.problemChecking')}
      </Text>
      <Text data-testid="panel-problem-login" data-may-not-work={mayNotWork}>
        {mayNotWork ? t('panel.problemMayNotWork') : loginEmail ? t('panel.problemLogin', { email: loginEmail }) : t('panel.problemLoginInvitation')}
      </Text>
      {help.help === 'householdLink' && (
        <Box data-testid="panel-problem-household">
          <Text>{t('panel.problemHousehold')}</Text>
          <chakra.ol m="0" pl="5">
            {HOUSEHOLD_STEPS.map((key) => (
              <li key={key}>{t(key)}</li>
            ))}
          </chakra.ol>
        </Box>
      )}
      {help.help === 'loginCode' && (
        <Box data-testid="panel-problem-code">
          <Text>{t('panel.problemCode')}</Text>
          <Text>{t('panel.codeNote')}</Text>
        </Box>
      )}
    </Stack>
  );
}
