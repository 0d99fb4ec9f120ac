import { Migration } from '@corridor/db';

/**
 * Sandbox placeholders (decision 0031): SandboxCreateCustomer attaches files that have no object in
 * storage, 0 bytes under a `sandbox-placeholder/` key. Every other file keeps its size above 0.
 */
export class Migration20261201100000SandboxPlaceholders extends Migration {
  override up(): void {
    this.addSql(`alter table stored_file drop constraint stored_file_size_bytes_check`);
    this.addSql(
      `alter table stored_file add constraint stored_file_size_bytes_check
         check (size_bytes > 0 or (size_bytes = 0 and object_key like 'sandbox-placeholder/%'))`,
    );
  }

  override down(): void {
    this.addSql(`delete from stored_file where size_bytes = 0`);
    this.addSql(`alter table stored_file drop constraint stored_file_size_bytes_check`);
    this.addSql(`alter table stored_file add constraint stored_file_size_bytes_check check (size_bytes > 0)`);
  }
}
