import { GATES } from '@ops/shared';
import { certificateGates } from '@ops/shared/rules/certificates/policy';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { zId } from '../../http/zod.ts';
import { ZCertificateEdit } from './certificates.schema.ts';
import { deleteCertificate, listCertificates, saveCertificate } from './certificates.service.ts';
import { ZPilotsCertificatesEdit, ZPilotsCertificatesDelete, ZPilotsCertificates } from './certificates.responses.ts';

/** The external auditor reads but never writes (roles <= 150 write for anyone, others for themselves). */
export const certificatesRoutes = [
  defineRoute({
    method: 'POST',
    path: '/pilots/certificates/edit.json',
    area: 'certificates',
    summary:
      'Create or change a certificate: UserCertificate{id?, user_id, type, name?, issue?, expiration?, comments?} (CONTRACT 4)',
    access: { who: certificateGates.write },
    body: ZCertificateEdit,
    response: ZPilotsCertificatesEdit,
    handler: ({ ctx, actor, body }) => saveCertificate(ctx, actor, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/pilots/certificates/delete/:id.json',
    noBody: true,
    area: 'certificates',
    summary: 'Delete a certificate (roles <= 150 for anyone, others their own)',
    access: { who: certificateGates.write },
    params: z.object({ id: zId }),
    response: ZPilotsCertificatesDelete,
    handler: ({ ctx, actor, params }) => deleteCertificate(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/pilots/certificates{/:userId}.json',
    area: 'certificates',
    summary: 'Certificates of a user (default: the caller); roles > 150 only their own (403 otherwise) (CONTRACT 4)',
    access: { who: GATES.member },
    params: z.object({ userId: zId.optional() }),
    response: ZPilotsCertificates,
    handler: ({ ctx, actor, params }) => listCertificates(ctx, actor, params.userId),
  }),
];
