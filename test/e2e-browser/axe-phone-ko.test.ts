import { describeAxe } from '../support/axe-suite.js';
import { PHONE } from '../support/browser.js';

describeAxe('phone', PHONE, 'ko');
