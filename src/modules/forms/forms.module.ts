import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FormsController } from './forms.controller.js';
import { FormsService } from './forms.service.js';
import { PaymentFormEntity } from './payment-form.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([PaymentFormEntity])],
  controllers: [FormsController],
  providers: [FormsService],
  exports: [FormsService],
})
export class FormsModule {}
