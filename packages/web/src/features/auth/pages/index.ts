// One lazily loaded chunk for the login screens (formik and yup will live here, not in the storefront).
export { default as LoginPage } from './LoginPage';
export { default as NaverCallbackPage } from './NaverCallbackPage';
export { default as RegisterPage } from './RegisterPage';
