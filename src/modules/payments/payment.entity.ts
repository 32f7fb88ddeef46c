import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A payment record (`{prefix}checkout_payments`, migration 1764115300000). Amounts in minor units. */
@Entity({ name: 'checkout_payments' })
export class PaymentEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'form_id', type: 'integer', nullable: true })
  formId: number | null;

  /** The first payment of a subscription, for renewal rows. */
  @Column({ name: 'parent_payment_id', type: 'integer', nullable: true })
  parentPaymentId: number | null;

  @Column({ name: 'gateway', type: 'varchar', length: 20 })
  gateway: string;

  @Column({ name: 'payment_method', type: 'varchar', length: 40 })
  paymentMethod: string;

  @Column({ name: 'mode', type: 'varchar', length: 4 })
  mode: string;

  @Column({ name: 'status', type: 'varchar', length: 20 })
  status: string;

  @Column({ name: 'amount', type: 'integer' })
  amount: number;

  @Column({ name: 'currency', type: 'varchar', length: 3 })
  currency: string;

  @Column({ name: 'application_fee_amount', type: 'integer', nullable: true })
  applicationFeeAmount: number | null;

  @Column({ name: 'amount_received', type: 'integer', nullable: true })
  amountReceived: number | null;

  /** One-off fee of a recurring price, charged with the first invoice; fixed at sync time. */
  @Column({ name: 'setup_amount', type: 'integer', nullable: true })
  setupAmount: number | null;

  @Column({ name: 'plan_index', type: 'integer', nullable: true })
  planIndex: number | null;

  @Column({ name: 'price_index', type: 'integer', nullable: true })
  priceIndex: number | null;

  @Column({ name: 'frequency', type: 'varchar', length: 10 })
  frequency: string;

  @Column({ name: 'email_address', type: 'varchar', length: 254, nullable: true })
  emailAddress: string | null;

  @Column({ name: 'first_name', type: 'varchar', length: 100, nullable: true })
  firstName: string | null;

  @Column({ name: 'last_name', type: 'varchar', length: 100, nullable: true })
  lastName: string | null;

  /** JSON object of the form's custom fields (string values). */
  @Column({ name: 'custom_fields', type: 'text', nullable: true })
  customFields: string | null;

  /** Per-row random nonce; the payment secret is an HMAC over id + nonce and is never stored. */
  @Column({ name: 'secret_nonce', type: 'varchar', length: 43 })
  secretNonce: string;

  @Column({ name: 'provider_payment_ref', type: 'varchar', length: 255, nullable: true })
  providerPaymentRef: string | null;

  @Column({ name: 'provider_customer_ref', type: 'varchar', length: 255, nullable: true })
  providerCustomerRef: string | null;

  @Column({ name: 'provider_subscription_ref', type: 'varchar', length: 255, nullable: true })
  providerSubscriptionRef: string | null;

  @Column({ name: 'provider_capture_ref', type: 'varchar', length: 255, nullable: true })
  providerCaptureRef: string | null;

  @Column({ name: 'subscription_status', type: 'varchar', length: 30, nullable: true })
  subscriptionStatus: string | null;

  @Column({ name: 'client_ip', type: 'varchar', length: 45, nullable: true })
  clientIp: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
