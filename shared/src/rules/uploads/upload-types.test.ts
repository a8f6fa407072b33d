import { describe, expect, it } from 'vitest';
import {
  contentMatchesDeclared,
  MAX_DIRECT_UPLOAD_BYTES,
  safeFilename,
  signErrors,
  uploadTypeOf,
} from './upload-types.ts';

describe('upload type classes', () => {
  it('classifies by mime', () => {
    expect(uploadTypeOf('image/jpeg')).toBe('photo');
    expect(uploadTypeOf('IMAGE/PNG; charset=x')).toBe('photo');
    expect(uploadTypeOf('video/mp4')).toBe('video');
    expect(uploadTypeOf('audio/mpeg')).toBe('sound');
    expect(uploadTypeOf('application/pdf')).toBe('document');
    expect(uploadTypeOf('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe('document');
    expect(uploadTypeOf('text/csv')).toBe('other');
    expect(uploadTypeOf('application/x-msdownload')).toBeNull();
    expect(uploadTypeOf('not a mime')).toBeNull();
  });
});

describe('content against declared type', () => {
  it('accepts matching signatures within the class', () => {
    expect(contentMatchesDeclared('image/jpeg', 'image/jpeg')).toBe(true);
    expect(contentMatchesDeclared('image/jpg', 'image/jpeg')).toBe(true);
    expect(contentMatchesDeclared('image/jpeg', 'image/png')).toBe(true);
    expect(contentMatchesDeclared('video/quicktime', 'video/mp4')).toBe(true);
    expect(contentMatchesDeclared('audio/mp3', 'audio/mpeg')).toBe(true);
    expect(contentMatchesDeclared('application/pdf', 'application/pdf')).toBe(true);
    expect(
      contentMatchesDeclared(
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'application/zip',
      ),
    ).toBe(true);
  });
  it('rejects files lying about their type', () => {
    expect(contentMatchesDeclared('application/pdf', 'image/png')).toBe(false);
    expect(contentMatchesDeclared('image/png', 'application/pdf')).toBe(false);
    expect(contentMatchesDeclared('image/jpeg', null)).toBe(false);
    expect(contentMatchesDeclared('video/mp4', 'audio/mpeg')).toBe(false);
    expect(contentMatchesDeclared('text/plain', 'application/x-msdownload')).toBe(false);
    expect(contentMatchesDeclared('application/x-unknown', 'application/x-unknown')).toBe(false);
  });
  it('accepts text without a signature', () => {
    expect(contentMatchesDeclared('text/plain', null)).toBe(true);
    expect(contentMatchesDeclared('text/csv', null)).toBe(true);
  });
});

describe('sign parameters', () => {
  const ok = { filename: 'a.pdf', mime: 'application/pdf', size: 10, model: 'Aircraft', foreign_key: 'x' };
  it('accepts a complete request', () => expect(signErrors(ok)).toEqual({}));
  it('requires all five', () =>
    expect(Object.keys(signErrors({})).sort()).toEqual(['filename', 'foreign_key', 'mime', 'model', 'size']));
  it('checks type and size', () => {
    expect(signErrors({ ...ok, mime: 'application/x-msdownload' }).mime).toBe('Unsupported file type');
    expect(signErrors({ ...ok, size: -1 }).size).toBe('Invalid size');
    expect(signErrors({ ...ok, size: '12abc' }).size).toBe('Invalid size');
    expect(signErrors({ ...ok, size: 0 }).size).toBe('Invalid size');
    expect(signErrors({ ...ok, size: MAX_DIRECT_UPLOAD_BYTES })).toEqual({});
    expect(signErrors({ ...ok, size: MAX_DIRECT_UPLOAD_BYTES + 1 }).size).toBe('File is larger than 2 GB');
    expect(signErrors({ ...ok, filename: '../etc/passwd' }).filename).toBe('Invalid file name');
  });
  it('cleans file names', () => {
    expect(safeFilename('C:\\x\\photo "1".jpg')).toBe('photo 1.jpg');
    expect(safeFilename('')).toBe('file');
  });
});
