import { Module } from '@nestjs/common';
import { Clock } from './clock.js';

/** One Clock for the whole application, so a test that moves time moves it everywhere. */
@Module({ providers: [Clock], exports: [Clock] })
export class ClockModule {}
