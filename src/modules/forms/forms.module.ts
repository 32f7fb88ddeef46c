import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FormsService } from './forms.service.js';
import { PaymentFormEntity } from './payment-form.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([PaymentFormEntity])],
  providers: [FormsService],
  exports: [FormsService],
})
export class FormsModule {}
