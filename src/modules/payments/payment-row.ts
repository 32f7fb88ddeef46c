import { readDatetime } from '../../database/index.js';
import { PaymentEntity } from './payment.entity.js';

/** A payments-table row as the driver returns it (column names; datetimes as SQLite text or mysql2 Date). */
export interface PaymentRow {
  id: number;
  form_id: number | null;
  parent_payment_id: number | null;
  gateway: string;
  payment_method: string;
  mode: string;
  status: string;
  amount: number;
  currency: string;
  application_fee_amount: number | null;
  amount_received: number | null;
  setup_amount: number | null;
  plan_index: number | null;
  price_index: number | null;
  frequency: string;
  email_address: string | null;
  first_name: string | null;
  last_name: string | null;
  custom_fields: string | null;
  secret_nonce: string;
  provider_payment_ref: string | null;
  provider_customer_ref: string | null;
  provider_subscription_ref: string | null;
  provider_capture_ref: string | null;
  subscription_status: string | null;
  client_ip: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** Every column but the id, in the order of the INSERT's values (paymentInsertValues). */
const INSERT_COLUMNS = [
  'form_id',
  'parent_payment_id',
  'gateway',
  'payment_method',
  'mode',
  'status',
  'amount',
  'currency',
  'application_fee_amount',
  'amount_received',
  'setup_amount',
  'plan_index',
  'price_index',
  'frequency',
  'email_address',
  'first_name',
  'last_name',
  'custom_fields',
  'secret_nonce',
  'provider_payment_ref',
  'provider_customer_ref',
  'provider_subscription_ref',
  'provider_capture_ref',
  'subscription_status',
  'client_ip',
  'created_at',
  'updated_at',
] as const;

export const paymentInsertColumns = INSERT_COLUMNS.map((column) => `\`${column}\``).join(',');
export const paymentSelectList = ['id', ...INSERT_COLUMNS].map((column) => `\`${column}\``).join(', ');

/** The INSERT's values for a new row (undefined is written as NULL: no column of the table has a default). */
export function paymentInsertValues(row: PaymentEntity): unknown[] {
  return [
    row.formId,
    row.parentPaymentId,
    row.gateway,
    row.paymentMethod,
    row.mode,
    row.status,
    row.amount,
    row.currency,
    row.applicationFeeAmount,
    row.amountReceived,
    row.setupAmount,
    row.planIndex,
    row.priceIndex,
    row.frequency,
    row.emailAddress,
    row.firstName,
    row.lastName,
    row.customFields,
    row.secretNonce,
    row.providerPaymentRef,
    row.providerCustomerRef,
    row.providerSubscriptionRef,
    row.providerCaptureRef,
    row.subscriptionStatus,
    row.clientIp,
    row.createdAt,
    row.updatedAt,
  ];
}

/** The entity TypeORM would hydrate from the row: every column as the driver gave it, datetimes as Date. */
export function toPaymentEntity(row: PaymentRow): PaymentEntity {
  const entity = new PaymentEntity();
  entity.id = row.id;
  entity.formId = row.form_id;
  entity.parentPaymentId = row.parent_payment_id;
  entity.gateway = row.gateway;
  entity.paymentMethod = row.payment_method;
  entity.mode = row.mode;
  entity.status = row.status;
  entity.amount = row.amount;
  entity.currency = row.currency;
  entity.applicationFeeAmount = row.application_fee_amount;
  entity.amountReceived = row.amount_received;
  entity.setupAmount = row.setup_amount;
  entity.planIndex = row.plan_index;
  entity.priceIndex = row.price_index;
  entity.frequency = row.frequency;
  entity.emailAddress = row.email_address;
  entity.firstName = row.first_name;
  entity.lastName = row.last_name;
  entity.customFields = row.custom_fields;
  entity.secretNonce = row.secret_nonce;
  entity.providerPaymentRef = row.provider_payment_ref;
  entity.providerCustomerRef = row.provider_customer_ref;
  entity.providerSubscriptionRef = row.provider_subscription_ref;
  entity.providerCaptureRef = row.provider_capture_ref;
  entity.subscriptionStatus = row.subscription_status;
  entity.clientIp = row.client_ip;
  entity.createdAt = readDatetime(row.created_at);
  entity.updatedAt = readDatetime(row.updated_at);
  return entity;
}

/** What an UPDATE of a payment may set: every column but the id, the secret nonce and the creation time. */
export type PaymentChanges = Partial<Omit<PaymentEntity, 'id' | 'secretNonce' | 'createdAt'>>;

/** The column of each property an UPDATE may set. */
export const PAYMENT_UPDATE_COLUMNS: Readonly<Record<keyof PaymentChanges, string>> = {
  formId: 'form_id',
  parentPaymentId: 'parent_payment_id',
  gateway: 'gateway',
  paymentMethod: 'payment_method',
  mode: 'mode',
  status: 'status',
  amount: 'amount',
  currency: 'currency',
  applicationFeeAmount: 'application_fee_amount',
  amountReceived: 'amount_received',
  setupAmount: 'setup_amount',
  planIndex: 'plan_index',
  priceIndex: 'price_index',
  frequency: 'frequency',
  emailAddress: 'email_address',
  firstName: 'first_name',
  lastName: 'last_name',
  customFields: 'custom_fields',
  providerPaymentRef: 'provider_payment_ref',
  providerCustomerRef: 'provider_customer_ref',
  providerSubscriptionRef: 'provider_subscription_ref',
  providerCaptureRef: 'provider_capture_ref',
  subscriptionStatus: 'subscription_status',
  clientIp: 'client_ip',
  updatedAt: 'updated_at',
};
