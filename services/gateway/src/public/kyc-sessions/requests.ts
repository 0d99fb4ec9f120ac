import { z } from '@corridor/config';
import { describeJson } from '@corridor/validation';
import { pageCursor, perPage, redirectUrl, shown, text, uuidField, wordOf } from '../../floor/fields.js';
import { KYC_REQUIREMENTS, KYC_SESSION_STATUSES } from './vocabulary.js';

/**
 * What the KYC session routes read (decision 0016): types and shapes only, each problem named by
 * field (422 VALIDATION_FAILED). Whether a customer is the business's, or a reference was rejected
 * for good, is customer-kyb's to say.
 */

export const CUSTOMER_REFERENCE_MAX = 255;

const typeProblem = (expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined
    ? 'is required'
    : `must be ${expected}, got ${typeof issue.input === 'number' ? shown(issue.input) : describeJson(issue.input)}`;

/** The platform's reference for the person: printable, not only spaces (customer-kyb refuses those too). */
const customerReference = (description: string) =>
  text(CUSTOMER_REFERENCE_MAX, description)
    // '' is already "must not be empty".
    .refine((value) => value === '' || value.trim() !== '', 'must not be only spaces')
    .meta({ description });

const REQUIREMENT_WORDS = KYC_REQUIREMENTS.words.join(', ');

/** A non-empty set of requirements: an array of distinct words. */
const requirements = () =>
  z
    .array(wordOf(KYC_REQUIREMENTS, 'a check the person goes through'), {
      error: typeProblem(`an array of ${REQUIREMENT_WORDS}`),
    })
    .min(1, `must name at least one of ${REQUIREMENT_WORDS}`)
    .superRefine((names, context) => {
      const repeated = [...new Set(names.filter((name, index) => names.indexOf(name) !== index))];
      if (repeated.length > 0) {
        context.addIssue({
          code: 'custom',
          message: `must not repeat a requirement, got ${repeated.join(', ')} twice`,
        });
      }
    })
    .meta({
      uniqueItems: true,
      description:
        'what the person is asked for: DOCUMENTS an identity document, SELFIE a photo of them, FACE_MATCH both, the selfie matched against the document',
    });

export const KycSessionBody = z
  .strictObject({
    customer_reference: customerReference(
      'your reference for the person, returned in the session and its webhooks; a reference rejected with FINAL cannot start another session',
    ),
    requirements: requirements(),
    customer_id: uuidField('one of your customers, when the person is one').optional(),
    redirect_url: redirectUrl(
      'an absolute https:// URL of at most 2048 characters; after submitting, the person is sent there with session_id and status appended to its query',
    ).optional(),
  })
  .meta({
    description:
      'A merchant KYC session: the person completes it on verification_url, and the verdict arrives as merchant.kyc.session.completed (or merchant.kyc.session.expired)',
  });

export const KycSessionListQuery = z.strictObject({
  customer_reference: customerReference('only sessions with this customer_reference').optional(),
  status: wordOf(KYC_SESSION_STATUSES, 'only sessions in this status').optional(),
  customer_id: uuidField('only sessions of this customer').optional(),
  cursor: pageCursor(),
  per_page: perPage('sessions'),
});
