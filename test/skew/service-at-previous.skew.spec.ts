import { describeSkew } from '../support/skew.js';

// Each service at its previous release beside everything else at HEAD: the others released ahead of
// it, or it rolled back alone (issue 33, decision 0052).
describeSkew('previous');
