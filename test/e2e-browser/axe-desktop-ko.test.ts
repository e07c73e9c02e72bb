import { describeAxe } from '../support/axe-suite.js';
import { DESKTOP } from '../support/browser.js';

describeAxe('desktop', DESKTOP, 'ko');
