import { z } from '@corridor/config';
import { cursorList } from '../../floor/pages/cursor-page.js';
import { successBody } from '../../floor/success-body.js';
import {
  CAPTURE_KINDS,
  KYC_REJECTION_TYPES,
  KYC_REQUIREMENTS,
  KYC_RESULTS,
  KYC_SESSION_STATUSES,
} from './vocabulary.js';

/**
 * The closed JSON of merchant KYC sessions (decision 0016): every key always present, null when
 * absent. render.ts output is checked against these before it is sent, and the OpenAPI document's
 * schemas are made from them.
 */

const instant = (description: string) => z.iso.datetime().meta({ description });
const word = (words: readonly [string, ...string[]], description: string) => z.enum(words).meta({ description });

export const KycCapture = z
  .strictObject({
    kind: word(CAPTURE_KINDS, 'document: an identity document; selfie: a photo of the person'),
    content_type: z.string().meta({ examples: ['image/png'] }),
    size_bytes: z.int().nonnegative(),
    captured_at: instant('when the person added it'),
  })
  .meta({ description: 'What the person gave on the verification page (the file itself is not served)' });

export const KycSession = z
  .strictObject({
    id: z.guid(),
    customer_reference: z.string().meta({ description: 'your reference for the person, as you sent it' }),
    customer_id: z.guid().nullable().meta({ description: 'your customer, when you named one' }),
    requirements: z.array(word(KYC_REQUIREMENTS.words, 'a check the person goes through')),
    status: word(
      KYC_SESSION_STATUSES.words,
      'PENDING: waiting for the person on verification_url; PROCESSING: submitted, waiting for the verdict; COMPLETED: result is set; EXPIRED: the deadline passed first; CANCELLED: you cancelled it',
    ),
    result: word(KYC_RESULTS.words, 'the verdict').nullable().meta({ description: 'null until COMPLETED' }),
    rejection_reason: z
      .string()
      .nullable()
      .meta({ description: 'REJECTED only: why, in words showable to the person' }),
    rejection_type: word(KYC_REJECTION_TYPES.words, 'the kind of rejection').nullable().meta({
      description: 'REJECTED only: FINAL, the reference cannot start another session; RETRYABLE, it can (seed 3.4)',
    }),
    verification_url: z.url().nullable().meta({
      description: 'while PENDING: the page where the person completes the session; send it to them. null after',
    }),
    redirect_url: z.string().nullable().meta({ description: 'where the person goes after submitting' }),
    captures: z.array(KycCapture),
    expires_at: instant('unless completed by then, the session becomes EXPIRED'),
    created_at: instant('when it was created'),
    updated_at: instant('its last change'),
    submitted_at: instant('when the person submitted').nullable(),
    completed_at: instant('when the verdict came').nullable(),
    expired_at: instant('when it expired').nullable(),
    cancelled_at: instant('when you cancelled it').nullable(),
  })
  .meta({ description: 'A merchant KYC session: one person’s identity check for your platform (seed 3.4)' });

export const KycSessionList = cursorList(KycSession, 'sessions');

export const kycSessionCreatedBody = successBody('kyc session created', KycSession);
export const kycSessionBody = successBody('kyc session retrieved', KycSession);
export const kycSessionCancelledBody = successBody('kyc session cancelled', KycSession);
export const kycResultRecordedBody = successBody('kyc session result recorded', KycSession);

/** The named schemas of the KYC session routes, as components.schemas of the document. */
export const KYC_SESSION_COMPONENTS = { KycSession, KycCapture } as const;
