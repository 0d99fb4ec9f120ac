import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import {
  CustomerType,
  VerificationStatus,
  type Customer,
  type KybDocument,
  type Owner,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { customerDataJson, ownerDataJson } from '@corridor/customer-json';
import { Fragment } from 'react';
import { ErrorSummary, Moment } from '../layout/components.js';
import {
  backNeeded,
  customerName,
  CUSTOMER_TYPES,
  emailOf,
  fieldLabel,
  fieldText,
  fileIn,
  KYB_DOCUMENT_TYPES,
  kybScopeOf,
  missingRequirements,
  ownerName,
  ownerRoles,
  REVIEW_STATUSES,
  VERIFICATION_STATUSES,
  wordOf,
} from './customer-words.js';
import { SandboxLink } from '../layout/sandbox-link.js';
import { CustomerAreaNavigation, FileState, FilterForm, Pager, WordSelect } from './list-components.js';

const dateOf = (timestamp: Timestamp | undefined) => (timestamp ? timestampDate(timestamp) : undefined);

/** The filters as the form shows them again: the values given, by parameter name. */
export type CustomerFilterValues = Partial<Record<string, string>>;

function TextFilter(props: { label: string; name: string; hint: string; value?: string; error?: string }) {
  const id = `filter-${props.name}`;
  return (
    <div className={props.error ? 'field field-error' : 'field'}>
      <label htmlFor={id}>{props.label}</label>
      <p className="hint" id={`${id}-hint`}>
        {props.hint}
      </p>
      {props.error ? (
        <p className="error" id={`${id}-error`}>
          {props.error}
        </p>
      ) : null}
      <input
        id={id}
        name={props.name}
        type="text"
        defaultValue={props.value ?? ''}
        maxLength={255}
        aria-describedby={props.error ? `${id}-hint ${id}-error` : `${id}-hint`}
        aria-invalid={props.error ? true : undefined}
      />
    </div>
  );
}

/** "Go to customer by id": a GET form the server answers with a redirect to the customer. */
export function GoToCustomer({ value, error }: { value?: string; error?: string }) {
  return (
    <form method="get" action="/customers/go">
      <div className={error ? 'field field-error' : 'field'}>
        <label htmlFor="go-customer-id">Go to a customer by id</label>
        {error ? (
          <p className="error" id="go-customer-id-error">
            {error}
          </p>
        ) : null}
        <input
          id="go-customer-id"
          name="customer_id"
          type="text"
          defaultValue={value ?? ''}
          placeholder="6c1d7a9e-…"
          aria-describedby={error ? 'go-customer-id-error' : undefined}
          aria-invalid={error ? true : undefined}
        />
      </div>
      <button type="submit" className="secondary">
        Go to customer
      </button>
    </form>
  );
}

export function CustomerList(props: {
  customers?: readonly Customer[];
  filters: CustomerFilterValues;
  problems: ReadonlyMap<string, string>;
  error?: string;
  nextCursor?: string;
  previousCursor?: string;
  /** The id a member asked to go to, when it named no customer. */
  goTo?: { value: string; error: string };
}) {
  const { filters, problems } = props;
  return (
    <>
      <CustomerAreaNavigation current="/customers" />
      <ErrorSummary message={props.error} />
      <p>
        Your platform’s customers, newest first, as the API’s <code>GET /customer</code> lists them. Merchant KYC
        sessions are under <a href="/kyc-sessions">KYC sessions</a>.
      </p>
      <GoToCustomer value={props.goTo?.value} error={props.goTo?.error} />
      <FilterForm action="/customers" legend="Find customers">
        <TextFilter
          label="Email"
          name="email"
          hint="The customer’s contact email, exactly."
          value={filters.email}
          error={problems.get('email')}
        />
        <TextFilter
          label="Registration number"
          name="registration_number"
          hint="A business customer’s registration_number, exactly."
          value={filters.registration_number}
          error={problems.get('registration_number')}
        />
        <TextFilter
          label="ID number"
          name="id_number"
          hint="An individual customer’s id_number, exactly."
          value={filters.id_number}
          error={problems.get('id_number')}
        />
        <WordSelect
          label="Verification status"
          name="verification_status"
          words={VERIFICATION_STATUSES.words}
          value={filters.verification_status}
          error={problems.get('verification_status')}
        />
        <WordSelect
          label="Type"
          name="type"
          words={CUSTOMER_TYPES.words}
          value={filters.type}
          error={problems.get('type')}
        />
      </FilterForm>
      {props.customers === undefined ? null : props.customers.length === 0 ? (
        <p>No customers match.</p>
      ) : (
        <table>
          <caption>Customers, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Email</th>
              <th scope="col">Verification status</th>
              <th scope="col">KYB scope</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {props.customers.map((customer) => (
              <tr key={customer.id}>
                <th scope="row">
                  <a href={`/customers/${encodeURIComponent(customer.id)}`}>{customerName(customer)}</a>
                </th>
                <td>{wordOf(CUSTOMER_TYPES, customer.type)}</td>
                <td>{emailOf(customer) ?? ''}</td>
                <td>{wordOf(VERIFICATION_STATUSES, customer.verificationStatus)}</td>
                <td>{kybScopeOf(customer) ?? 'Not applicable'}</td>
                <td>
                  <Moment at={dateOf(customer.createdAt)} never="" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager
        path="/customers"
        filters={Object.entries(filters).filter((entry): entry is [string, string] => entry[1] !== undefined)}
        nextCursor={props.nextCursor}
        previousCursor={props.previousCursor}
      />
    </>
  );
}

function Comments({ comments }: { comments: readonly string[] }) {
  if (comments.length === 0) return <>None</>;
  return (
    <ul>
      {comments.map((comment, index) => (
        <li key={index}>{comment}</li>
      ))}
    </ul>
  );
}

function OwnerTable({ owners }: { owners: readonly Owner[] }) {
  if (owners.length === 0) return <p>No owners yet.</p>;
  return (
    <table>
      <caption>Owners, in the order they were added</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Roles</th>
          <th scope="col">Ownership</th>
          <th scope="col">Status</th>
          <th scope="col">ID document</th>
          <th scope="col">ID front</th>
          <th scope="col">ID back</th>
          <th scope="col">Review comments</th>
        </tr>
      </thead>
      <tbody>
        {owners.map((owner) => {
          const fields = ownerDataJson(owner);
          const back = backNeeded(fields.id_document_type);
          return (
            <tr key={owner.id}>
              <th scope="row">
                {ownerName(owner)}
                {typeof fields.email === 'string' ? (
                  <>
                    <br />
                    {fields.email}
                  </>
                ) : null}
              </th>
              <td>{ownerRoles(owner).join(', ') || 'None given'}</td>
              <td>
                {fields.ownership_percentage === null || fields.ownership_percentage === undefined
                  ? 'Not given'
                  : `${fieldText(fields.ownership_percentage)}%`}
              </td>
              <td>{wordOf(REVIEW_STATUSES, owner.status)}</td>
              <td>
                {fieldText(fields.id_document_type)}
                {typeof fields.id_document_country === 'string' ? ` (${fields.id_document_country})` : null}
              </td>
              <td>
                <FileState file={fileIn(owner.idFiles, 'id_document_front')} />
              </td>
              <td>
                <FileState
                  file={fileIn(owner.idFiles, 'id_document_back')}
                  empty={back === false ? 'Not needed (passport)' : 'Missing'}
                />
              </td>
              <td>
                <Comments comments={owner.adminComments} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function DocumentTable({ documents }: { documents: readonly KybDocument[] }) {
  if (documents.length === 0) return <p>No KYB documents yet.</p>;
  return (
    <table>
      <caption>KYB documents, oldest first</caption>
      <thead>
        <tr>
          <th scope="col">Type</th>
          <th scope="col">Status</th>
          <th scope="col">File</th>
          <th scope="col">Uploaded</th>
          <th scope="col">Review comments</th>
        </tr>
      </thead>
      <tbody>
        {documents.map((document) => (
          <tr key={document.id}>
            <th scope="row">
              <code>{wordOf(KYB_DOCUMENT_TYPES, document.type)}</code>
            </th>
            <td>{wordOf(REVIEW_STATUSES, document.status)}</td>
            <td>
              <FileState file={document.file} />
            </td>
            <td>
              <Moment at={dateOf(document.file?.uploadedAt)} never="" />
            </td>
            <td>
              <Comments comments={document.adminComments} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const ID_FILE_SLOTS: [slot: string, label: string][] = [
  ['id_file', 'ID front (id_file)'],
  ['id_file_back', 'ID back (id_file_back)'],
];

/** The back office's comments in one place (seed 6.1: read them from the customer after a rejection). */
function ReviewComments({ customer }: { customer: Customer }) {
  const commented: [about: string, comments: readonly string[]][] = [
    ...customer.owners.map((owner): [string, readonly string[]] => [`Owner ${ownerName(owner)}`, owner.adminComments]),
    ...customer.documents.map((document): [string, readonly string[]] => [
      `Document ${wordOf(KYB_DOCUMENT_TYPES, document.type)}`,
      document.adminComments,
    ]),
  ].filter(([, comments]) => comments.length > 0);
  if (commented.length === 0) return null;
  return (
    <>
      <h2>Review comments</h2>
      <p>Corridor’s review left these comments (the API’s admin_comments); change what they name, then submit again.</p>
      <dl className="facts">
        {commented.map(([about, comments]) => (
          <Fragment key={about}>
            <dt>{about}</dt>
            <dd>
              <Comments comments={comments} />
            </dd>
          </Fragment>
        ))}
      </dl>
    </>
  );
}

export function CustomerDetail({ customer }: { customer: Customer }) {
  const scope = kybScopeOf(customer);
  const missing = missingRequirements(customer);
  const business = customer.type === CustomerType.BUSINESS;
  return (
    <>
      <CustomerAreaNavigation current="/customers" />
      {customer.verificationStatus === VerificationStatus.PROCESSING ? (
        <SandboxLink
          field="customer_id"
          id={customer.id}
          text="Review it with the sandbox tools (VERIFIED or REJECTED)"
        />
      ) : null}
      <dl className="facts">
        <dt>Customer id</dt>
        <dd>
          <code>{customer.id}</code>
        </dd>
        <dt>Type</dt>
        <dd>{wordOf(CUSTOMER_TYPES, customer.type)}</dd>
        <dt>Verification status</dt>
        <dd>{wordOf(VERIFICATION_STATUSES, customer.verificationStatus)}</dd>
        {scope ? (
          <>
            <dt>KYB scope</dt>
            <dd>{scope}</dd>
          </>
        ) : null}
        <dt>Created</dt>
        <dd>
          <Moment at={dateOf(customer.createdAt)} never="" />
        </dd>
        <dt>Updated</dt>
        <dd>
          <Moment at={dateOf(customer.updatedAt)} never="" />
        </dd>
        <dt>Submitted for verification</dt>
        <dd>
          <Moment at={dateOf(customer.submittedAt)} never="Not yet" />
        </dd>
      </dl>
      {missing.length > 0 ? (
        <>
          <h2>Still needed before submitting</h2>
          <p className="hint">
            As far as this page can tell; the API’s submit checks again (dates included) and has the last word.
          </p>
          <ul>
            {missing.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </>
      ) : null}
      <ReviewComments customer={customer} />
      <h2>{business ? 'Business details' : 'Personal details'}</h2>
      <dl className="facts">
        {Object.entries(customerDataJson(customer)).map(([name, value]) => (
          <Fragment key={name}>
            <dt>{fieldLabel(name)}</dt>
            <dd>{fieldText(value)}</dd>
          </Fragment>
        ))}
      </dl>
      {business ? (
        <>
          <h2>Owners</h2>
          <OwnerTable owners={customer.owners} />
          <h2>KYB documents</h2>
          <DocumentTable documents={customer.documents} />
        </>
      ) : (
        <>
          <h2>ID files</h2>
          <table>
            <caption>ID files attached to the customer</caption>
            <thead>
              <tr>
                <th scope="col">Slot</th>
                <th scope="col">File</th>
                <th scope="col">Uploaded</th>
              </tr>
            </thead>
            <tbody>
              {ID_FILE_SLOTS.map(([slot, label]) => {
                const file = fileIn(customer.idFiles, slot);
                return (
                  <tr key={slot}>
                    <th scope="row">{label}</th>
                    <td>
                      <FileState file={file} empty="None" />
                    </td>
                    <td>
                      <Moment at={dateOf(file?.uploadedAt)} never="" />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
      <p>
        <a href={`/kyc-sessions?customer_id=${encodeURIComponent(customer.id)}`}>KYC sessions of this customer</a>
      </p>
      <p>
        <a href="/customers">Back to customers</a>
      </p>
    </>
  );
}
