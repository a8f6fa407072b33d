import { describe, expect, it } from 'vitest';
import { cleanRequiredCertificates } from './required-certificates.ts';

describe('cleanRequiredCertificates (Part B 4.5)', () => {
  it('keeps valid catalog pairs in order, normalising the role', () => {
    expect(
      cleanRequiredCertificates([
        { role: ' PIC ', certificate_type: 'SEP' },
        { role: 'sic', certificate_type: ' MCC ' },
      ]),
    ).toEqual([
      { role: 'pic', certificate_type: 'SEP' },
      { role: 'sic', certificate_type: 'MCC' },
    ]);
  });

  it('ignores types that are not in the certificate type catalog', () => {
    expect(
      cleanRequiredCertificates([
        { role: 'pic', certificate_type: 'NOT_A_TYPE' },
        { role: 'pic', certificate_type: 'sep' },
        { role: 'supervisor', certificate_type: 'FI' },
        { role: 'sic', certificate_type: 'XYZ123' },
      ]),
    ).toEqual([{ role: 'supervisor', certificate_type: 'FI' }]);
  });

  it('ignores unknown roles, non-objects, missing fields and duplicates', () => {
    expect(
      cleanRequiredCertificates([
        'garbage',
        null,
        42,
        { role: 'captain', certificate_type: 'SEP' },
        { role: 'pic' },
        { certificate_type: 'SEP' },
        { role: 'pic', certificate_type: 7 },
        { role: 'pic', certificate_type: 'SEP' },
        { role: 'Pic', certificate_type: 'SEP ' },
      ]),
    ).toEqual([{ role: 'pic', certificate_type: 'SEP' }]);
  });

  it('an empty list stays empty', () => {
    expect(cleanRequiredCertificates([])).toEqual([]);
  });
});
