/**
 * ledger_apply(transfers jsonb): applies linked transfers in one statement, so they commit together
 * or not at all, in one round trip. Each element is {id, phase ('posted' | 'pending'),
 * debit_account_id, credit_account_id, amount, currency, transaction_id} or, to resolve a pending
 * transfer, {id, phase ('post_pending' | 'void_pending'), pending_id, transaction_id}.
 *
 * - Every account involved is locked in id order by one statement, so callers sharing accounts queue
 *   and never deadlock.
 * - A wallet (no_overdraft) is debited only by an UPDATE whose WHERE requires the money to be there:
 *   the check and the move are one statement, never read-then-write.
 * - A transfer id derives from the operation: the same id with the same fields is a no-op
 *   ("duplicate"), with other fields an error.
 *
 * Errors (SQLSTATE): CL001 conflicting repeat, CL002 insufficient funds, CL003 no such pending
 * transfer, CL004 pending transfer already resolved, CL005 account missing or of another currency.
 */
export const LEDGER_APPLY_FUNCTION_SQL = `
create function ledger_apply(transfers jsonb) returns jsonb language plpgsql as $$
declare
  t jsonb;
  account_ids bigint[];
  existing ledger_transfer%rowtype;
  pending ledger_transfer%rowtype;
  debit ledger_account%rowtype;
  credit ledger_account%rowtype;
  debit_id bigint;
  credit_id bigint;
  amt bigint;
  cur text;
  ph text;
  pid text;
  account_code text;
  results jsonb := '[]'::jsonb;
begin
  select array_agg(distinct a order by a) into account_ids from (
    select (x->>'debit_account_id')::bigint from jsonb_array_elements(transfers) x
      where x ? 'debit_account_id'
    union all
    select (x->>'credit_account_id')::bigint from jsonb_array_elements(transfers) x
      where x ? 'credit_account_id'
    union all
    select unnest(array[p.debit_account_id, p.credit_account_id])
      from ledger_transfer p join jsonb_array_elements(transfers) x on p.id = x->>'pending_id'
  ) as s (a);
  perform 1 from ledger_account where id = any (account_ids) order by id for update;

  for t in select value from jsonb_array_elements(transfers) loop
    ph := t->>'phase';
    pid := t->>'pending_id';
    if ph in ('post_pending', 'void_pending') then
      select * into pending from ledger_transfer where id = pid;
      if not found or pending.phase <> 'pending' then
        raise exception 'no pending transfer %', pid using errcode = 'CL003';
      end if;
      debit_id := pending.debit_account_id;
      credit_id := pending.credit_account_id;
      amt := pending.amount;
      cur := pending.currency;
    elsif ph in ('posted', 'pending') then
      debit_id := (t->>'debit_account_id')::bigint;
      credit_id := (t->>'credit_account_id')::bigint;
      amt := (t->>'amount')::bigint;
      cur := t->>'currency';
    else
      raise exception 'unknown phase %', ph using errcode = '22023';
    end if;

    select * into existing from ledger_transfer where id = t->>'id';
    if found then
      if existing.debit_account_id = debit_id and existing.credit_account_id = credit_id
         and existing.amount = amt and existing.phase = ph and existing.pending_id is not distinct from pid then
        results := results || jsonb_build_object('id', existing.id, 'outcome', 'duplicate');
        continue;
      end if;
      raise exception 'transfer % already exists with other accounts, amount or phase', existing.id
        using errcode = 'CL001';
    end if;
    if pid is not null and exists (select 1 from ledger_transfer where pending_id = pid) then
      raise exception 'pending transfer % is already posted or voided', pid using errcode = 'CL004';
    end if;

    update ledger_account a set
      posted_debits = a.posted_debits + case when ph in ('posted', 'post_pending') then amt else 0 end,
      pending_debits = a.pending_debits + case ph when 'pending' then amt when 'posted' then 0 else -amt end,
      version = a.version + 1,
      updated_at = now()
    where a.id = debit_id and a.currency = cur
      and (not a.no_overdraft or ph in ('post_pending', 'void_pending')
           or a.posted_debits + a.pending_debits + amt <= a.posted_credits)
    returning a.* into debit;
    if not found then
      select code into account_code from ledger_account where id = debit_id and currency = cur;
      if account_code is null then
        raise exception 'account % is not a % account', debit_id, cur using errcode = 'CL005';
      end if;
      raise exception 'insufficient funds in %', account_code using errcode = 'CL002', detail = account_code;
    end if;

    update ledger_account a set
      posted_credits = a.posted_credits + case when ph in ('posted', 'post_pending') then amt else 0 end,
      pending_credits = a.pending_credits + case ph when 'pending' then amt when 'posted' then 0 else -amt end,
      version = a.version + 1,
      updated_at = now()
    where a.id = credit_id and a.currency = cur
    returning a.* into credit;
    if not found then
      raise exception 'account % is not a % account', credit_id, cur using errcode = 'CL005';
    end if;

    insert into ledger_transfer (id, debit_account_id, credit_account_id, currency, amount, phase, pending_id,
      transaction_id)
    values (t->>'id', debit_id, credit_id, cur, amt, ph, pid, (t->>'transaction_id')::uuid);
    insert into ledger_entry (transfer_id, account_id, side, amount, phase, posted_debits_after,
      posted_credits_after, pending_debits_after, pending_credits_after, account_version)
    values
      (t->>'id', debit.id, 'debit', amt, ph, debit.posted_debits, debit.posted_credits,
       debit.pending_debits, debit.pending_credits, debit.version),
      (t->>'id', credit.id, 'credit', amt, ph, credit.posted_debits, credit.posted_credits,
       credit.pending_debits, credit.pending_credits, credit.version);
    results := results || jsonb_build_object('id', t->>'id', 'outcome', 'created');
  end loop;
  return results;
end $$`;
