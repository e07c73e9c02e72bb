import { describeFirstTap } from '../support/first-tap-suite.js';

describeFirstTap('phone', 'ko');
