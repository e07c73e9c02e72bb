/**
 * The login chunk: loaded with /login, /register or /naver/callback and never before, so the
 * storefront's first download carries none of it (nor Formik, Yup or the shared form rules).
 * Loading it adds the login slice to the store (slice.ts) and starts the login saga.
 */
import { injectSaga } from '../../app/sagaInjector';
import { loginSaga } from './saga';

injectSaga('login', loginSaga);

export { default as LoginPage } from './pages/LoginPage';
export { default as NaverCallbackPage } from './pages/NaverCallbackPage';
export { default as RegisterPage } from './pages/RegisterPage';
