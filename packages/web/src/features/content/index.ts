/**
 * The static pages (support, FAQ, how it works, about us, the policies) and their texts in
 * both languages: one lazy chunk, so the storefront's first download carries none of it.
 */
export { default as FaqPage } from './pages/FaqPage';
export { default as HowItWorksPage } from './pages/HowItWorksPage';
export { default as PolicyPage } from './pages/PolicyPage';
export { default as SupportPage } from './pages/SupportPage';
