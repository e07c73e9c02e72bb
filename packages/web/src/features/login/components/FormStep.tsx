/**
 * The shape every form step of the login page shares: core's schema built with the reader's
 * messages, Formik around an intro text, the step's fields, a full-width submit button that
 * spins while the step's request is pending, and what goes under it (links to other steps).
 * A step names only what is its own.
 */
import { useMemo, type ReactNode } from 'react';
import { Button, Link, Stack, Text } from '@chakra-ui/react';
import type { ValidationMessages } from '@subshare/core/validation';
import { Form, Formik, type FormikValues } from 'formik';
import type { AnyObjectSchema, InferType } from 'yup';
import { useAppSelector } from '../../../app/hooks';
import { useValidationMessages } from '../../language/useValidationMessages';
import { selectPending } from '../selectors';
import type { LoginRequest } from '../slice';

interface FormStepProps<S extends AnyObjectSchema> {
  /** The step's rules from `@subshare/core/validation`, the same the server checks. */
  rules: (messages: ValidationMessages) => S;
  initialValues: FormikValues;
  /** Called with the values as the rules cast them (an e-mail trimmed and lower-cased). */
  onSubmit: (values: InferType<S>) => void;
  intro: ReactNode;
  submit: { label: string; testId: string; request: LoginRequest };
  /** The step's fields, above the submit button. */
  children: ReactNode;
  /** Under the submit button; rendered inside the form, so it may read Formik's context. */
  footer?: ReactNode;
}

export function FormStep<S extends AnyObjectSchema>({ rules, initialValues, onSubmit, intro, submit, children, footer }: FormStepProps<S>) {
  const messages = useValidationMessages();
  const schema = useMemo(() => rules(messages), [rules, messages]);
  const pending = useAppSelector(selectPending);

  return (
    <Formik initialValues={initialValues} validationSchema={schema} onSubmit={(values) => onSubmit(schema.cast(values) as InferType<S>)}>
      <Form noValidate>
        <Stack gap="5">
          <Text color="fg.muted">{intro}</Text>
          {children}
          <Button type="submit" data-testid={submit.testId} colorPalette="purple" size="lg" w="full" loading={pending === submit.request}>
            {submit.label}
          </Button>
          {footer}
        </Stack>
      </Form>
    </Formik>
  );
}

interface StepLinkProps {
  testId: string;
  onClick: () => void;
  /** The link's own request: while it is pending the link is disabled and says it is busy. */
  busy?: boolean;
  children: ReactNode;
}

/** A button that reads as a link: "Forgot password?", "send a new code", "back to login". */
export function StepLink({ testId, onClick, busy, children }: StepLinkProps) {
  return (
    <Link asChild colorPalette="purple" fontWeight="medium">
      <button type="button" data-testid={testId} disabled={busy} aria-busy={busy} onClick={onClick}>
        {children}
      </button>
    </Link>
  );
}
