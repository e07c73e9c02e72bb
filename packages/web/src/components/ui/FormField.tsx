/**
 * The one form field of the project: a Formik field drawn with Chakra's Field, so every form
 * (Formik + a Yup schema + this wrapper) labels, describes and reports errors the same way.
 * An error shows once the field was left or the form was submitted; it carries the test id
 * `field-error-<name>`. Imported only by lazily loaded forms: Formik stays out of the first
 * download.
 */
import { useState, type ChangeEvent, type ReactNode } from 'react';
import { Button, Checkbox, Field, Flex, Input, InputGroup, NativeSelect, Textarea, type InputProps } from '@chakra-ui/react';
import { useField } from 'formik';
import { LineIcon } from '../plain/LineIcon';

interface CommonProps {
  /** The Formik value's name; also the input's name and the error's test id suffix. */
  name: string;
  label: ReactNode;
  /** `data-testid` of the input (of the checkbox's label for checkboxes). */
  testId: string;
  helperText?: ReactNode;
  required?: boolean;
  disabled?: boolean;
}

interface TextFieldProps extends CommonProps {
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  inputMode?: InputProps['inputMode'];
  autoFocus?: boolean;
  placeholder?: string;
  /** Shows "n / max" under the input, with this test id. */
  counter?: { max: number; testId: string };
  /** Cleans what is typed or pasted before it becomes the value (e.g. drops spaces). */
  normalize?: (value: string) => string;
  /** Texts of the show/hide button of password fields. */
  passwordToggle?: { show: string; hide: string };
  /** A text of several lines (a textarea of this many rows); text fields only. */
  multiline?: number;
}

interface CheckboxFieldProps extends CommonProps {
  type: 'checkbox';
}

interface SelectFieldProps extends CommonProps {
  type: 'select';
  /** The choices, in order, after the empty "choose" line (`placeholder`; none when empty). */
  options: ReadonlyArray<{ value: string; label: string }>;
  placeholder?: string;
  /** Called with the new value after Formik has it (e.g. a platform fills other fields). */
  onValueChange?: (value: string) => void;
}

export type FormFieldProps = TextFieldProps | CheckboxFieldProps | SelectFieldProps;

export function FormField(props: FormFieldProps) {
  if (props.type === 'checkbox') return <CheckboxField {...props} />;
  if (props.type === 'select') return <SelectField {...props} />;
  return <TextField {...props} />;
}

interface FrameProps extends Omit<CommonProps, 'testId'> {
  error: string | undefined;
  invalid: boolean;
  /** Drawn right of the error, e.g. a text field's "n / max". */
  aside?: ReactNode;
  children: ReactNode;
}

/** Label, required mark, helper text and error around one input: the same for every labelled field kind. */
function FieldFrame({ name, label, helperText, required, disabled, error, invalid, aside, children }: FrameProps) {
  return (
    <Field.Root invalid={invalid} required={required} disabled={disabled}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      {children}
      {helperText && !invalid && <Field.HelperText>{helperText}</Field.HelperText>}
      {(invalid || aside) && (
        <Flex w="full" gap="3" align="start">
          <ErrorText name={name} error={error} />
          {aside}
        </Flex>
      )}
    </Field.Root>
  );
}

function ErrorText({ name, error }: { name: string; error: string | undefined }) {
  // red.700, not the theme's red.500: small error text needs a 4.5:1 contrast on white (axe color-contrast).
  return (
    <Field.ErrorText data-testid={`field-error-${name}`} color="red.700">
      {error}
    </Field.ErrorText>
  );
}

/** What the frame draws around a field, from the field's own props. */
const frameOf = ({ name, label, helperText, required, disabled }: CommonProps) => ({ name, label, helperText, required, disabled });

function TextField(props: TextFieldProps) {
  const { name, testId, type = 'text', autoComplete, inputMode, autoFocus, placeholder, counter, normalize, passwordToggle, multiline } = props;
  const [field, meta, helpers] = useField<string>(name);
  const [revealed, setRevealed] = useState(false);
  const invalid = Boolean(meta.touched && meta.error);
  const value = field.value ?? '';

  const onChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (normalize) void helpers.setValue(normalize(event.target.value));
    else field.onChange(event);
  };

  const input = multiline ? (
    <Textarea
      {...field}
      value={value}
      onChange={onChange}
      data-testid={testId}
      rows={multiline}
      autoFocus={autoFocus}
      placeholder={placeholder}
      autoCorrect="off"
      spellCheck={false}
      size="lg"
      resize="vertical"
    />
  ) : (
    <Input
      {...field}
      value={value}
      onChange={onChange}
      data-testid={testId}
      type={type === 'password' && revealed ? 'text' : type}
      autoComplete={autoComplete}
      inputMode={inputMode}
      autoFocus={autoFocus}
      placeholder={placeholder}
      autoCapitalize={type === 'text' ? undefined : 'none'}
      autoCorrect="off"
      spellCheck={false}
      size="lg"
    />
  );

  return (
    <FieldFrame
      {...frameOf(props)}
      error={meta.error}
      invalid={invalid}
      aside={
        counter && (
          <Field.HelperText data-testid={counter.testId} ms="auto" flexShrink={0} color={value.length > counter.max ? 'fg.error' : undefined}>
            {value.length} / {counter.max}
          </Field.HelperText>
        )
      }
    >
      {type === 'password' && passwordToggle ? (
        <InputGroup
          endElement={
            <Button
              variant="ghost"
              size="xs"
              me="-1"
              aria-pressed={revealed}
              aria-label={revealed ? passwordToggle.hide : passwordToggle.show}
              onClick={() => setRevealed((shown) => !shown)}
            >
              <EyeIcon crossed={revealed} />
            </Button>
          }
        >
          {input}
        </InputGroup>
      ) : (
        input
      )}
    </FieldFrame>
  );
}

function CheckboxField({ name, label, testId, helperText, disabled }: CheckboxFieldProps) {
  const [field, meta, helpers] = useField<boolean>(name);
  const invalid = Boolean(meta.touched && meta.error);
  return (
    <Field.Root invalid={invalid} disabled={disabled}>
      <Checkbox.Root
        data-testid={testId}
        name={name}
        checked={Boolean(field.value)}
        onCheckedChange={(details) => void helpers.setValue(details.checked === true)}
        colorPalette="purple"
      >
        <Checkbox.HiddenInput onBlur={field.onBlur} />
        <Checkbox.Control />
        <Checkbox.Label>{label}</Checkbox.Label>
      </Checkbox.Root>
      {helperText && <Field.HelperText>{helperText}</Field.HelperText>}
      <ErrorText name={name} error={meta.error} />
    </Field.Root>
  );
}

function SelectField(props: SelectFieldProps) {
  const { name, testId, options, placeholder, onValueChange } = props;
  const [field, meta] = useField<string>(name);
  const onChange = (event: ChangeEvent<HTMLSelectElement>) => {
    field.onChange(event);
    onValueChange?.(event.currentTarget.value);
  };
  return (
    <FieldFrame {...frameOf(props)} error={meta.error} invalid={Boolean(meta.touched && meta.error)}>
      <NativeSelect.Root size="lg">
        <NativeSelect.Field {...field} value={field.value ?? ''} onChange={onChange} data-testid={testId} placeholder={placeholder}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </FieldFrame>
  );
}

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <LineIcon size={18}>
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {crossed && <path d="M4 4l16 16" />}
    </LineIcon>
  );
}
