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
