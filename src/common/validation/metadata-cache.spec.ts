import 'reflect-metadata';
import { IsInt, IsString, Max, MinLength, validate, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { plainToInstance } from 'class-transformer';
import { cacheValidationMetadataLookups } from './metadata-cache.js';

class Inner {
  @IsInt()
  n!: number;
}

class Base {
  @IsString()
  name!: string;
}

class Outer extends Base {
  @ValidateNested()
  @Type(() => Inner)
  inner!: Inner;
}

const errorsOf = async (plain: object) =>
  (await validate(plainToInstance(Outer, plain))).map((error) => ({ property: error.property, constraints: error.constraints, children: error.children?.map((child) => child.constraints) }));

describe('cached validation metadata lookups', () => {
  const cases = [{ name: 'long-enough', inner: { n: 1 } }, { name: 3, inner: { n: 'x' } }, { inner: {} }, { name: 'short', inner: { n: 100 } }];

  it('gives the same errors as class-validator without the cache, also for inherited and nested rules, and sees rules added later', async () => {
    const before = await Promise.all(cases.map(errorsOf));
    cacheValidationMetadataLookups();
    const cached = await Promise.all(cases.map(errorsOf));
    expect(cached).toEqual(before);
    expect(await Promise.all(cases.map(errorsOf))).toEqual(before);
    expect(before[1].map((error) => error.property).sort()).toEqual(['inner', 'name']);

    // Decorators applied after the first lookups (as a late-loaded module would): counted at once.
    MinLength(6)(Base.prototype, 'name');
    Max(10)(Inner.prototype, 'n');
    const later = await Promise.all(cases.map(errorsOf));
    expect(later[0]).toEqual([]);
    expect(later[3]).toHaveLength(2);
    expect(later[3]).toEqual(
      expect.arrayContaining([
        { property: 'name', constraints: { minLength: 'name must be longer than or equal to 6 characters' }, children: [] },
        { property: 'inner', constraints: undefined, children: [{ max: 'n must not be greater than 10' }] },
      ]),
    );
  });
});
