import { useFrame } from './frame.js';
import { may } from '../members/roles.js';

/**
 * A link to the sandbox tools with the object's id filled in ("Verify it with the sandbox tools"),
 * rendered only for a member who may use them here: never in production, never for a viewer.
 */
export function SandboxLink({ field, id, text }: { field: string; id: string; text: string }) {
  const { session, environment } = useFrame();
  if (!session || session.stage !== 'signed_in' || !may(session.role, 'sandbox_tools', environment)) return null;
  return (
    <p className="sandbox-link">
      <a href={`/sandbox?${new URLSearchParams({ [field]: id }).toString()}`}>{text}</a>
    </p>
  );
}
