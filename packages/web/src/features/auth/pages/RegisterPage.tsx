import { Page } from '../../../components/ui/Page';
import { useT } from '../../language/useT';

/** /register: the spec keeps it as an unused form; /login handles registration. */
export default function RegisterPage() {
  const t = useT();
  return <Page testId="page-register" title={t('register.title')} />;
}
