import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, IsNull, Like, Not, Repository } from 'typeorm';
import type { AuthenticatedUser } from '../../common/auth/index.js';
import { ForbiddenError, NotFoundError } from '../../common/errors/index.js';
import { EntityTable, selectRows } from '../../database/index.js';
import type { FormStatus, PaymentForm, PaymentFormSettings } from './form-settings.js';
import { PaymentFormEntity } from './payment-form.entity.js';

export interface FormChanges {
  title?: string;
  status?: FormStatus;
  /** Replaces the stored settings as a whole */
  settings?: PaymentFormSettings;
}

/** The catalog item a form was imported from: a bundled form template or a full-page layout. */
export type FormSource = { type: 'form_template'; slug: string } | { type: 'layout'; id: string };

export interface FormPage {
  items: PaymentForm[];
  total: number;
}

/** Owns the payment-form table. Other modules read forms through `findById` / `getById`. */
@Injectable()
export class FormsService {
  /** The forms table as the fixed statement sees it: the entity's columns, rows hydrated into the entity. */
  private readonly rows: EntityTable<PaymentFormEntity>;
  /** Read on every public payment request: a fixed text (built once, here) instead of `findOne` (docs/benchmarks.md). */
  private readonly byIdSql: string;

  constructor(@InjectRepository(PaymentFormEntity) private readonly forms: Repository<PaymentFormEntity>) {
    this.rows = new EntityTable<PaymentFormEntity>(forms.metadata);
    this.byIdSql = `SELECT ${this.rows.selectList} FROM ${this.rows.table} WHERE \`id\` = ? LIMIT 1`;
  }

  /**
   * `manager`: read inside the caller's transaction, on its connection (a second pooled connection
   * taken while a transaction holds one can wait forever once every connection is so held).
   */
  async findById(id: number, manager: EntityManager = this.forms.manager): Promise<PaymentForm | null> {
    const rows = await selectRows<Record<string, unknown>>(manager, this.byIdSql, [id]);
    return rows.length ? toPaymentForm(this.rows.hydrate(rows[0])) : null;
  }

  /** Like findById, but a missing form is a 404 `checkout_not_found`. */
  async getById(id: number): Promise<PaymentForm> {
    const form = await this.findById(id);
    if (!form) throw new NotFoundError('Payment form');
    return form;
  }

  /** The titles of the forms among `ids` that exist (a deleted form is simply absent): lists of payments name their forms. */
  async titlesOf(ids: readonly number[]): Promise<Map<number, string>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = await this.forms.find({ select: { id: true, title: true }, where: { id: In(unique) } });
    return new Map(rows.map((row) => [row.id, row.title]));
  }

  /** `manager`: run inside the caller's transaction. `source`: the catalog item it was imported from. */
  async create(
    input: { title: string; status: FormStatus; authorId: number; settings: PaymentFormSettings; source?: FormSource },
    manager?: EntityManager,
  ): Promise<PaymentForm> {
    const now = new Date();
    const repo = manager ? manager.getRepository(PaymentFormEntity) : this.forms;
    const row = repo.create({
      title: input.title,
      status: input.status,
      authorId: input.authorId,
      settings: JSON.stringify(input.settings),
      sourceTemplate: input.source ? sourceKey(input.source) : null,
      createdAt: now,
      updatedAt: now,
    });
    // One INSERT (it sets row.id), not save(): outside a transaction it is a lone statement, which
    // the conflict retry covers; save() would open a transaction of its own that it does not.
    await repo.insert(row);
    return toPaymentForm(row);
  }

  /** A form written by `user`, who must be allowed to write forms at all (`edit_checkout_forms`). */
  async createAs(user: AuthenticatedUser, input: { title: string; status?: FormStatus; settings: PaymentFormSettings; source?: FormSource }): Promise<PaymentForm> {
    if (!this.canCreate(user)) throw new ForbiddenError('You are not allowed to create payment forms.');
    return this.create({ title: input.title, status: input.status ?? 'draft', authorId: user.id, settings: input.settings, source: input.source });
  }

  /**
   * How many existing forms were imported from a bundled template or a layout (the dashboard's
   * `select_template` step). A deleted form no longer counts; forms made before the import was
   * recorded (migration 1764116100000) count as built by hand.
   */
  async countImported(): Promise<{ total: number; fromFormTemplates: number; fromLayouts: number }> {
    const total = await this.forms.count({ where: { sourceTemplate: Not(IsNull()) } });
    const fromLayouts = await this.forms.count({ where: { sourceTemplate: Like('layout:%') } });
    return { total, fromFormTemplates: total - fromLayouts, fromLayouts };
  }

  /** Newest first: by creation time, then id (ids are not in creation order on a distributed engine, docs/scaling.md). */
  async list(query: { page: number; perPage: number; status?: FormStatus }): Promise<FormPage> {
    const [rows, total] = await this.forms.findAndCount({
      where: query.status ? { status: query.status } : {},
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: (query.page - 1) * query.perPage,
      take: query.perPage,
    });
    return { items: rows.map(toPaymentForm), total };
  }

  /** The form, if `user` has edit access to it (404 before 403, so ids of missing forms do not leak access rules). */
  async getEditable(user: AuthenticatedUser, id: number): Promise<PaymentForm> {
    const form = await this.getById(id);
    if (!this.canEdit(user, form)) throw new ForbiddenError('You are not allowed to edit this payment form.');
    return form;
  }

  async update(user: AuthenticatedUser, id: number, changes: FormChanges): Promise<PaymentForm> {
    await this.getEditable(user, id);
    const patch: Partial<PaymentFormEntity> = { updatedAt: new Date() };
    if (changes.title !== undefined) patch.title = changes.title;
    if (changes.status !== undefined) patch.status = changes.status;
    if (changes.settings !== undefined) patch.settings = JSON.stringify(changes.settings);
    await this.forms.update({ id }, patch);
    return this.getById(id);
  }

  /** Deletes the form and answers it as it was. Payments keep their `form_id` for the record. */
  async remove(user: AuthenticatedUser, id: number): Promise<PaymentForm> {
    const form = await this.getEditable(user, id);
    const result = await this.forms.delete({ id });
    if (!result.affected) throw new NotFoundError('Payment form');
    return form;
  }

  canCreate(user: AuthenticatedUser): boolean {
    return user.capabilities.has('edit_checkout_forms') || user.capabilities.has('edit_others_checkout_forms');
  }

  /**
   * "Edit access to the form" (docs/decisions.md §3): its author holding `edit_checkout_forms`, or anyone
   * holding `edit_others_checkout_forms`.
   */
  canEdit(user: AuthenticatedUser, form: Pick<PaymentForm, 'author_id'>): boolean {
    if (user.capabilities.has('edit_others_checkout_forms')) return true;
    return form.author_id === user.id && user.capabilities.has('edit_checkout_forms');
  }
}

function sourceKey(source: FormSource): string {
  return source.type === 'layout' ? `layout:${source.id}` : `form_template:${source.slug}`;
}

/** The read type of a stored form (what other modules and the routes see). */
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
