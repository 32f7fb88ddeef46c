import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { AuthenticatedUser } from '../../common/auth/index.js';
import { NotFoundError } from '../../common/errors/index.js';
import type { FormStatus, PaymentForm, PaymentFormSettings } from './form-settings.js';
import { PaymentFormEntity } from './payment-form.entity.js';

/** Owns the payment-form table. Other modules read forms through `findById` / `getById`. */
@Injectable()
export class FormsService {
  constructor(@InjectRepository(PaymentFormEntity) private readonly forms: Repository<PaymentFormEntity>) {}

  async findById(id: number): Promise<PaymentForm | null> {
    const row = await this.forms.findOne({ where: { id } });
    return row ? toPaymentForm(row) : null;
  }

  /** Like findById, but a missing form is a 404 `checkout_not_found`. */
  async getById(id: number): Promise<PaymentForm> {
    const form = await this.findById(id);
    if (!form) throw new NotFoundError('Payment form');
    return form;
  }

  async create(input: { title: string; status: FormStatus; authorId: number; settings: PaymentFormSettings }): Promise<PaymentForm> {
    const now = new Date();
    const row = await this.forms.save(
      this.forms.create({ title: input.title, status: input.status, authorId: input.authorId, settings: JSON.stringify(input.settings), createdAt: now, updatedAt: now }),
    );
    return toPaymentForm(row);
  }

  /**
   * "Edit access to the form" (decisions §3): its author holding `edit_checkout_forms`, or anyone
   * holding `edit_others_checkout_forms`.
   */
  canEdit(user: AuthenticatedUser, form: Pick<PaymentForm, 'author_id'>): boolean {
    if (user.capabilities.has('edit_others_checkout_forms')) return true;
    return form.author_id === user.id && user.capabilities.has('edit_checkout_forms');
  }
}

export function toPaymentForm(row: PaymentFormEntity): PaymentForm {
  return {
    id: row.id,
    title: row.title,
    status: row.status as FormStatus,
    author_id: row.authorId,
    settings: JSON.parse(row.settings) as PaymentFormSettings,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
