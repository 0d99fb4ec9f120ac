export {
  BODY_PATH,
  describeJson,
  FieldProblems,
  firstProblemMessage,
  isJsonObject,
  isUuid,
  NOT_RECOGNISED,
  type FieldErrors,
  type ValidationResult,
} from './field-problems.js';
export { CONTROL_CHARACTER, CONTROL_PROBLEM, hasControlCharacter } from './control-characters.js';
