import { Global, Inject, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { CONFIG_ENV, ConfigError, configSection, envInteger } from '../../config/index.js';
import { connectEnv, type ConnectIo, type GatewayConnectCommand } from './gateway-connect-command.js';
import { checkGatewaySliceConfig, GatewaySlice, gatewayConnectCommands } from './gateway-slice.js';

const SLICE_CONFIG = configSection('SLICE_Y_CONFIG', (env) => ({ retries: envInteger(env, 'GATEWAY_Y_RETRIES', 3, { min: 0, max: 9 }) }));
const CONNECT: GatewayConnectCommand = { name: 'gateway-y:connect', usage: '  gateway-y:connect --mode <test|live>', run: async () => 0 };

@Injectable()
class SliceYService {
  constructor(@Inject(SLICE_CONFIG.token) readonly config: { retries: number }) {}
}

@GatewaySlice({ catalog: { id: 'gateway_y', label: 'Gateway Y', kind: 'card', methods: [{ id: 'y_card', label: 'Y card' }] }, config: SLICE_CONFIG, connect: CONNECT })
@Module({ providers: [SliceYService] })
class SliceYModule {}

/** CONFIG_ENV as the global ConfigModule gives it. */
@Global()
@Module({})
class EnvModule {
  static of(env: NodeJS.ProcessEnv) {
    return { module: EnvModule, providers: [{ provide: CONFIG_ENV, useValue: env }], exports: [CONFIG_ENV] };
  }
}

describe('@GatewaySlice config and connect', () => {
  const app = (env: NodeJS.ProcessEnv) =>
    Test.createTestingModule({ imports: [EnvModule.of(env), SliceYModule] })
      .compile()
      .then((moduleRef) => moduleRef.get(SliceYService));

  it('gives the slice its own section, read from CONFIG_ENV, as a provider of its module', async () => {
    expect((await app({})).config).toEqual({ retries: 3 });
    expect((await app({ GATEWAY_Y_RETRIES: '7' })).config).toEqual({ retries: 7 });
    await expect(app({ GATEWAY_Y_RETRIES: '10' })).rejects.toThrow('Invalid configuration: GATEWAY_Y_RETRIES must be between 0 and 9');
  });

  it('checks every registered slice\'s variables at once (the boot\'s check beside loadConfig)', () => {
    expect(() => checkGatewaySliceConfig({})).not.toThrow();
    expect(() => checkGatewaySliceConfig({ GATEWAY_Y_RETRIES: 'many' })).toThrow(ConfigError);
  });

  it('lists the slice\'s connect command for the CLI', () => {
    expect(gatewayConnectCommands()).toEqual([CONNECT]);
  });

  it('reads a connect key from the environment trimmed, empty as unset', () => {
    const io = { env: { GATEWAY_Y_KEY: ' key_1 ', GATEWAY_Y_EMPTY: '  ' } } as unknown as ConnectIo;
    expect(connectEnv(io, 'GATEWAY_Y_KEY')).toBe('key_1');
    expect(connectEnv(io, 'GATEWAY_Y_EMPTY')).toBeUndefined();
    expect(connectEnv(io, 'GATEWAY_Y_UNSET')).toBeUndefined();
  });
});
