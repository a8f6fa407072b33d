import type { AreaMessages } from '../types.ts';

// A record's photos and files (desktop/renderer/src/areas/uploads/Photos.tsx): the picker and the upload states.
const en = {
  addPhoto: 'Add photo',
  photo: 'Photo',
  file: 'File',
  savedHere: 'Saved on this device; uploads when the server can be reached',
  refused: 'Refused: {reason}',
  waiting: 'Waiting to upload',
} as const;

export const uploadsMessages: AreaMessages<typeof en> = {
  en,
  es: {
    addPhoto: 'Añadir foto',
    photo: 'Foto',
    file: 'Archivo',
    savedHere: 'Guardada en este dispositivo; se sube cuando el servidor esté accesible',
    refused: 'Rechazada: {reason}',
    waiting: 'Pendiente de subir',
  },
  fr: {
    addPhoto: 'Ajouter une photo',
    photo: 'Photo',
    file: 'Fichier',
    savedHere: 'Enregistrée sur cet appareil ; envoyée dès que le serveur est joignable',
    refused: 'Refusée : {reason}',
    waiting: 'En attente d’envoi',
  },
  de: {
    addPhoto: 'Foto hinzufügen',
    photo: 'Foto',
    file: 'Datei',
    savedHere: 'Auf diesem Gerät gespeichert; wird hochgeladen, sobald der Server erreichbar ist',
    refused: 'Abgelehnt: {reason}',
    waiting: 'Wartet auf Upload',
  },
};
