import { clone, create } from '@bufbuild/protobuf';
import {
  CustomerFilesInputSchema,
  CustomerInputSchema,
  DocumentInputSchema,
  OwnerFileInputSchema,
  OwnerInputListSchema,
  type CustomerInput,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import {
  CustomerType,
  IdDocumentType,
  KybDocumentType,
  KybScope,
  OwnerFileSlot,
  VerificationStatus,
  type Customer as CustomerMessage,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import type { CallerContext } from '@corridor/grpc';
import type { EntityManager } from '@mikro-orm/core';
import { randomBytes } from 'node:crypto';
import type { CustomerContext } from '../context.js';
import { registerDocument } from '../documents/kyb-documents.js';
import { issueSandboxPlaceholder } from '../files/file-uploads.js';
import { attachCustomerFiles } from '../files/individual-files.js';
import { attachOwnerFile } from '../files/owner-files.js';
import { sandboxPlatform } from '../sandbox-caller.js';
import { validationFailed } from './aggregate.js';
import { createCustomer } from './create-customer.js';
import {
  backIsRequired,
  isSent,
  resolveKybScope,
  sent,
  type IdDocumentType as IdDocumentTypeWord,
} from './rules/index.js';
import { sandboxReviewCustomer } from './sandbox-review.js';
import { submitCustomer } from './submit-customer.js';
import { customerDataJson, ownerDataJson } from '@corridor/customer-json';

/** What a business gets when the body names none (decision 0031). */
export const SANDBOX_BUSINESS_NAME = 'Sandbox Trading Ltd';
/** A country whose customers may hold every currency the README's money sections use (GBP, EUR, NGN). */
export const SANDBOX_COUNTRY = 'GB';
export const SANDBOX_DOCUMENT_TYPE = KybDocumentType.CERTIFICATE_OF_INCORPORATION;

const unique = () => randomBytes(5).toString('hex').toUpperCase();

/** The UTC calendar day `years` from `now`, as the rules read dates. */
const dayIn = (now: Date, years: number) =>
  new Date(Date.UTC(now.getUTCFullYear() + years, now.getUTCMonth(), now.getUTCDate())).toISOString().slice(0, 10);

/**
 * POST /customer's body with the sandbox's defaults where the platform sent nothing: a property sent
 * (null included) is the platform's and is judged by the create rules as it is.
 */
export function withSandboxDefaults(body: CustomerInput, now: Date): CustomerInput {
  const out = clone(CustomerInputSchema, body);
  const unsent = (name: string) => !isSent(CustomerInputSchema, body, name);
  const country = body.country;
  if (body.type === CustomerType.INDIVIDUAL) {
    if (unsent('first_name')) out.firstName = 'Sandbox';
    if (unsent('last_name')) out.lastName = 'Customer';
    if (unsent('country')) out.country = SANDBOX_COUNTRY;
    if (unsent('date_of_birth')) out.dateOfBirth = '1990-01-01';
    if (unsent('id_type')) out.idType = IdDocumentType.PASSPORT;
    if (unsent('id_number')) out.idNumber = `SBX${unique()}`;
    return out;
  }
  const incorporation = body.incorporationCountry;
  if (unsent('type')) out.type = CustomerType.BUSINESS;
  // FULL unless MINIMAL is asked for: null means "the default", as on create.
  out.kybScope = sent(CustomerInputSchema, body, 'kyb_scope') ? body.kybScope : KybScope.FULL;
  out.nullFields = out.nullFields.filter((name) => name !== 'kyb_scope');
  if (unsent('business_name')) out.businessName = SANDBOX_BUSINESS_NAME;
  // Unique per call: seed 2.1 rule 3 would refuse a second "Sandbox Trading Ltd" with one number.
  if (unsent('registration_number')) out.registrationNumber = `SBX-${unique()}`;
  // seed 2.1: a business's country equals its incorporation country; one sent sets both.
  if (unsent('incorporation_country')) out.incorporationCountry = incorporation ?? country ?? SANDBOX_COUNTRY;
  if (unsent('country')) out.country = country ?? incorporation ?? SANDBOX_COUNTRY;
  if (out.kybScope === KybScope.FULL && unsent('owners')) {
    const ownerCountry = out.country ?? SANDBOX_COUNTRY;
    out.owners = create(OwnerInputListSchema, {
      entries: [
        {
          firstName: 'Sandbox',
          lastName: 'Owner',
          ownershipPercentage: '100',
          dateOfBirth: '1980-01-01',
          nationality: ownerCountry,
          idDocumentType: IdDocumentType.PASSPORT,
          idDocumentNumber: `SBX${unique()}`,
          idDocumentCountry: ownerCountry,
          idExpiryDate: dayIn(now, 5),
        },
      ],
    });
  }
  return out;
}

const VERDICTS = [VerificationStatus.VERIFIED, VerificationStatus.REJECTED];

/**
 * SandboxCreateCustomer (decision 0031): one call to a VERIFIED or REJECTED customer, in the sandbox
 * only. The long way's steps, in one transaction and through the same use cases, so the same rules,
 * events (customer.created, then customer.status_changed to PROCESSING and to the verdict) and audit
 * entries follow: create; a placeholder file in each ID slot the owners' (or the individual's)
 * document type needs and a formation document; submit; the sandbox review. Every entry names the
 * caller as a sandbox simulation (`sandbox:credential:<client id>`).
 */
export async function sandboxCreateCustomer(
  em: EntityManager,
  context: CustomerContext,
  caller: CallerContext,
  input: { body: CustomerInput; verdict: VerificationStatus },
): Promise<CustomerMessage> {
  const actor = sandboxPlatform(caller, context);
  const verdict = input.verdict === VerificationStatus.UNSPECIFIED ? VerificationStatus.VERIFIED : input.verdict;
  if (!VERDICTS.includes(verdict)) throw validationFailed({ verification_status: ['must be VERIFIED or REJECTED'] });
  const now = context.now();
  const body = withSandboxDefaults(input.body, now);
  if (body.type === CustomerType.BUSINESS && body.kybScope === KybScope.MINIMAL) {
    // Production's rule holds here too, and the message says where the allow-list is kept.
    const { business } = await context.identity.getBusiness({ id: actor.businessId });
    const scope = resolveKybScope('MINIMAL', business?.kybMinimalAllowed ?? false);
    if (!scope.ok) {
      throw validationFailed({
        kyb_scope: [
          `${scope.problem}. The sandbox keeps production's rule: Corridor's back office allow-lists a business for MINIMAL KYB (kyb_minimal_allowed); until then create FULL customers (the default here)`,
        ],
      });
    }
  }

  return em.transactional(async (tx) => {
    const created = await createCustomer(tx, context, actor, body);
    const customerId = created.id;
    const customer = { id: customerId, businessId: actor.businessId };

    if (body.type === CustomerType.BUSINESS) {
      for (const owner of created.owners) {
        const type = ownerDataJson(owner).id_document_type as IdDocumentTypeWord | null;
        const slots = [
          { slot: 'id_document_front', value: OwnerFileSlot.ID_DOCUMENT_FRONT },
          ...(type && backIsRequired(type)
            ? [{ slot: 'id_document_back', value: OwnerFileSlot.ID_DOCUMENT_BACK }]
            : []),
        ];
        for (const { slot, value } of slots) {
          const file = issueSandboxPlaceholder(tx, context, customer, { purpose: 'owner_id', slot, ownerId: owner.id });
          await tx.flush();
          await attachOwnerFile(tx, context, actor, {
            customerId,
            ownerId: owner.id,
            body: create(OwnerFileInputSchema, { slot: value, fileId: file.id }),
          });
        }
      }
      const document = issueSandboxPlaceholder(tx, context, customer, { purpose: 'kyb_document', slot: 'document' });
      await tx.flush();
      await registerDocument(tx, context, actor, {
        customerId,
        body: create(DocumentInputSchema, { type: SANDBOX_DOCUMENT_TYPE, fileId: document.id }),
      });
    } else {
      const type = customerDataJson(created).id_type as IdDocumentTypeWord | null;
      const front = issueSandboxPlaceholder(tx, context, customer, {
        purpose: 'individual_id',
        slot: 'identity_front',
      });
      const back =
        type && backIsRequired(type)
          ? issueSandboxPlaceholder(tx, context, customer, { purpose: 'individual_id', slot: 'identity_back' })
          : undefined;
      await tx.flush();
      await attachCustomerFiles(tx, context, actor, {
        customerId,
        body: create(CustomerFilesInputSchema, { idFile: front.id, idFileBack: back?.id }),
      });
    }

    await submitCustomer(tx, context, actor, customerId);
    return sandboxReviewCustomer(tx, context, caller, { customerId, verdict });
  });
}
