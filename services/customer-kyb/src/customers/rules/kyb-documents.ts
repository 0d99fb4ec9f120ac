/** seed 2.3: the formation document types; at least one is needed to submit (seed 3.2 rule 7). */
export const FORMATION_DOCUMENT_TYPES = [
  'CERTIFICATE_OF_INCORPORATION',
  'ARTICLES_OF_INCORPORATION',
  'BENEFICIAL_OWNERSHIP_CERTIFICATE',
  'INCORPORATION_DOCUMENTS',
  'CAC_STATUS_REPORT',
] as const;
export type FormationDocumentType = (typeof FORMATION_DOCUMENT_TYPES)[number];

export function isFormationDocumentType(type: string): type is FormationDocumentType {
  return (FORMATION_DOCUMENT_TYPES as readonly string[]).includes(type);
}

/** Other KYB document types (seed 2.3: "not shown"; decision 0008). They never satisfy rule 7. */
export const OTHER_KYB_DOCUMENT_TYPES = [
  'PROOF_OF_ADDRESS',
  'SHAREHOLDER_REGISTER',
  'TAX_REGISTRATION',
  'BANK_STATEMENT',
  'OTHER',
] as const;

export const KYB_DOCUMENT_TYPES = [...FORMATION_DOCUMENT_TYPES, ...OTHER_KYB_DOCUMENT_TYPES] as const;
export type KybDocumentType = (typeof KYB_DOCUMENT_TYPES)[number];
