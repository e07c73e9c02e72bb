import type { ChangeEvent } from 'react';
import { Field, NativeSelect } from '@chakra-ui/react';
import { useField } from 'formik';

interface SelectFieldProps {
  name: string;
  label: string;
  testId: string;
  placeholder: string;
  options: Array<{ value: string; label: string }>;
  required?: boolean;
  disabled?: boolean;
  /** Called with the new value after Formik has it (a platform fills other fields). */
  onValueChange?: (value: string) => void;
}

/**
 * A Formik select drawn like FormField (label, required mark, error with the test id
 * `field-error-<name>` once the field was left or the form submitted).
 */
export function SelectField({ name, label, testId, placeholder, options, required, disabled, onValueChange }: SelectFieldProps) {
  const [field, meta] = useField<string>(name);
  const invalid = Boolean(meta.touched && meta.error);
  const onChange = (event: ChangeEvent<HTMLSelectElement>) => {
    field.onChange(event);
    onValueChange?.(event.currentTarget.value);
  };
  return (
    <Field.Root invalid={invalid} required={required} disabled={disabled}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
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
      <Field.ErrorText data-testid={`field-error-${name}`}>{meta.error}</Field.ErrorText>
    </Field.Root>
  );
}
