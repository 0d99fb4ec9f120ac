import { describeSkew } from '../support/skew.js';

// Each service at HEAD beside everything else at its previous release, the gateway too: the service
// released first, called by the gateway and services still running the release before
// (issue 33, decision 0052).
describeSkew('head');
