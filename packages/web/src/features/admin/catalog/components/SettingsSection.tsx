/**
 * The catalog editor's settings: platform type, slots, family invitation, shown in the shop (with
 * a warning when no account is behind it).
 */
import { Text } from '@chakra-ui/react';
import { useFormikContext } from 'formik';
import { FormField } from '../../../../components/ui/FormField';
import { useT } from '../../../language/useT';
import type { EditorValues } from '../editorForm';
import { CATALOG_TEXTS } from '../texts';
import { Pair, Section } from './EditorSection';

/**
 * `activeAccounts`: accounts behind the platform (none for a new one). Shown in the shop with
 * none, a buyer pays and waits for staff: the editor says so beside the switch, before saving.
 */
export function SettingsSection({ activeAccounts }: { activeAccounts: number }) {
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
