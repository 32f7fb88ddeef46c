import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { isDuplicateKeyError } from '../../../database/index.js';
import type { ConnectStateClaims } from './connect-state.js';
import { UsedConnectStateEntity } from './used-connect-state.entity.js';

@Injectable()
export class UsedConnectStateRepository {
  constructor(@InjectRepository(UsedConnectStateEntity) private readonly states: Repository<UsedConnectStateEntity>) {}

  /**
   * Records the state's nonce as used. False when it was used before: the primary key decides,
   * so two concurrent callbacks with the same state cannot both pass. Rows past their expiry are
   * purged on the way (an expired state is refused by its signature check anyway).
   */
  async markUsed(claims: ConnectStateClaims, now: Date): Promise<boolean> {
    await this.states.createQueryBuilder().delete().where('expires_at < :now', { now }).execute();
    try {
      await this.states.insert({ nonce: claims.nonce, userId: claims.userId, mode: claims.mode, expiresAt: new Date(claims.expiresAt), usedAt: now });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }
}
