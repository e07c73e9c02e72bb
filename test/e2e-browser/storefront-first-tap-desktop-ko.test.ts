import { describeFirstTap } from '../support/first-tap-suite.js';

describeFirstTap('desktop', 'ko');
