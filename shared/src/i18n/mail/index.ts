import type { AreaMessages } from '../types.ts';

// Mail subjects and bodies (server/src/mail/templates.ts), ICU placeholders.
const en = {
  twoFactorSubject: 'Your sign-in code',
  twoFactorBody:
    'Hello {name},\n\nYour sign-in code is {code}. It is valid for 10 minutes.\nIf you did not try to sign in, change your password.',
  confirmSubject: 'Confirm your email address',
  confirmBody: 'Hello {name},\n\nPlease confirm your email address {email} by opening:\n{appUrl}/confirm/{token}',
  welcomeSubject: 'Welcome to {company}',
  welcomeBody: 'Hello {name},\n\nYou now have an account at {company}. Sign in at {appUrl} with {email}.',
  activationSubject: 'Activate your account at {company}',
  activationBody:
    'Hello {name},\n\nYour account at {company} is ready. Set your password and sign in at {appUrl}/activate/{token}.',
  staffConfirmSubject: 'Your staff account at {company}',
  staffConfirmBody:
    'Hello {name},\n\nAn account was created for you at {company}. Confirm your email address at {appUrl}/{page}/{token}.',
  classInvitationSubject: 'Class: {subject} on {when}',
  classInvitationBody:
    'Hello {name},\n\nYou are invited to the class {activity} of {subject} ({training}) on {when}, {minutes} minutes{place}.\nTeacher: {teacher}.',
  classMissedSubject: 'You missed the class {subject} on {when}',
  classMissedBody:
    'Hello {name},\n\nThe attendance of the class {activity} of {subject} ({training}) on {when} was signed and you were marked absent.\nYou may send a justification until {deadline}: {appUrl}/trainings/classes/{classId}',
  accountEntrySubject: '{subject}',
  accountEntryBody: 'Hello {name},\n\n{text}\n\nYour account: {appUrl}/app/',
  reminderSubject: 'Reminder: activate your account at {company}',
  reminderBody: 'Hello {name},\n\nThis is a reminder to activate your account at {company}: {appUrl}/activate/{token}.',
  whatsappCode: 'Your {company} WhatsApp verification code is {code}. It is valid for 10 minutes.',
} as const;

export const mailMessages: AreaMessages<typeof en> = {
  en,
  es: {
    twoFactorSubject: 'Su código de acceso',
    twoFactorBody:
      'Hola {name}:\n\nSu código de acceso es {code}. Es válido durante 10 minutos.\nSi no ha intentado iniciar sesión, cambie su contraseña.',
    confirmSubject: 'Confirme su dirección de correo',
    confirmBody: 'Hola {name}:\n\nConfirme su dirección de correo {email} abriendo:\n{appUrl}/confirm/{token}',
    welcomeSubject: 'Bienvenido a {company}',
    welcomeBody: 'Hola {name}:\n\nYa tiene una cuenta en {company}. Inicie sesión en {appUrl} con {email}.',
    activationSubject: 'Active su cuenta en {company}',
    activationBody:
      'Hola {name}:\n\nSu cuenta en {company} está lista. Defina su contraseña e inicie sesión en {appUrl}/activate/{token}.',
    staffConfirmSubject: 'Su cuenta de personal en {company}',
    staffConfirmBody:
      'Hola {name}:\n\nSe ha creado una cuenta para usted en {company}. Confirme su dirección de correo en {appUrl}/{page}/{token}.',
    classInvitationSubject: 'Clase: {subject} el {when}',
    classInvitationBody:
      'Hola {name}:\n\nEstá invitado a la clase {activity} de {subject} ({training}) el {when}, {minutes} minutos{place}.\nProfesor: {teacher}.',
    classMissedSubject: 'No asistió a la clase {subject} del {when}',
    classMissedBody:
      'Hola {name}:\n\nSe ha firmado la asistencia de la clase {activity} de {subject} ({training}) del {when} y usted figura como ausente.\nPuede enviar una justificación hasta {deadline}: {appUrl}/trainings/classes/{classId}',
    accountEntrySubject: '{subject}',
    accountEntryBody: 'Hola {name}:\n\n{text}\n\nSu cuenta: {appUrl}/app/',
    reminderSubject: 'Recordatorio: active su cuenta en {company}',
    reminderBody: 'Hola {name}:\n\nLe recordamos que active su cuenta en {company}: {appUrl}/activate/{token}.',
    whatsappCode: 'Su código de verificación de WhatsApp de {company} es {code}. Es válido durante 10 minutos.',
  },
  fr: {
    twoFactorSubject: 'Votre code de connexion',
    twoFactorBody:
      'Bonjour {name},\n\nVotre code de connexion est {code}. Il est valable 10 minutes.\nSi vous n’avez pas essayé de vous connecter, changez votre mot de passe.',
    confirmSubject: 'Confirmez votre adresse e-mail',
    confirmBody:
      'Bonjour {name},\n\nVeuillez confirmer votre adresse e-mail {email} en ouvrant :\n{appUrl}/confirm/{token}',
    welcomeSubject: 'Bienvenue chez {company}',
    welcomeBody:
      'Bonjour {name},\n\nVous avez désormais un compte chez {company}. Connectez-vous sur {appUrl} avec {email}.',
    activationSubject: 'Activez votre compte chez {company}',
    activationBody:
      'Bonjour {name},\n\nVotre compte chez {company} est prêt. Choisissez votre mot de passe et connectez-vous sur {appUrl}/activate/{token}.',
    staffConfirmSubject: 'Votre compte du personnel chez {company}',
    staffConfirmBody:
      'Bonjour {name},\n\nUn compte a été créé pour vous chez {company}. Confirmez votre adresse e-mail sur {appUrl}/{page}/{token}.',
    classInvitationSubject: 'Cours : {subject} le {when}',
    classInvitationBody:
      'Bonjour {name},\n\nVous êtes invité au cours {activity} de {subject} ({training}) le {when}, {minutes} minutes{place}.\nEnseignant : {teacher}.',
    classMissedSubject: 'Vous avez manqué le cours {subject} du {when}',
    classMissedBody:
      'Bonjour {name},\n\nLa présence au cours {activity} de {subject} ({training}) du {when} a été signée et vous avez été noté absent.\nVous pouvez envoyer une justification jusqu’au {deadline} : {appUrl}/trainings/classes/{classId}',
    accountEntrySubject: '{subject}',
    accountEntryBody: 'Bonjour {name},\n\n{text}\n\nVotre compte : {appUrl}/app/',
    reminderSubject: 'Rappel : activez votre compte chez {company}',
    reminderBody:
      'Bonjour {name},\n\nCeci est un rappel pour activer votre compte chez {company} : {appUrl}/activate/{token}.',
    whatsappCode: 'Votre code de vérification WhatsApp {company} est {code}. Il est valable 10 minutes.',
  },
  de: {
    twoFactorSubject: 'Ihr Anmeldecode',
    twoFactorBody:
      'Hallo {name},\n\nIhr Anmeldecode lautet {code}. Er ist 10 Minuten gültig.\nWenn Sie sich nicht anmelden wollten, ändern Sie Ihr Passwort.',
    confirmSubject: 'Bestätigen Sie Ihre E-Mail-Adresse',
    confirmBody: 'Hallo {name},\n\nBitte bestätigen Sie Ihre E-Mail-Adresse {email} unter:\n{appUrl}/confirm/{token}',
    welcomeSubject: 'Willkommen bei {company}',
    welcomeBody:
      'Hallo {name},\n\nSie haben jetzt ein Konto bei {company}. Melden Sie sich unter {appUrl} mit {email} an.',
    activationSubject: 'Aktivieren Sie Ihr Konto bei {company}',
    activationBody:
      'Hallo {name},\n\nIhr Konto bei {company} ist bereit. Legen Sie Ihr Passwort fest und melden Sie sich unter {appUrl}/activate/{token} an.',
    staffConfirmSubject: 'Ihr Mitarbeiterkonto bei {company}',
    staffConfirmBody:
      'Hallo {name},\n\nBei {company} wurde ein Konto für Sie angelegt. Bestätigen Sie Ihre E-Mail-Adresse unter {appUrl}/{page}/{token}.',
    classInvitationSubject: 'Unterricht: {subject} am {when}',
    classInvitationBody:
      'Hallo {name},\n\nSie sind zum Unterricht {activity} in {subject} ({training}) am {when} eingeladen, {minutes} Minuten{place}.\nLehrkraft: {teacher}.',
    classMissedSubject: 'Sie haben den Unterricht {subject} am {when} versäumt',
    classMissedBody:
      'Hallo {name},\n\nDie Anwesenheit beim Unterricht {activity} in {subject} ({training}) am {when} wurde unterschrieben und Sie wurden als abwesend erfasst.\nSie können bis {deadline} eine Begründung senden: {appUrl}/trainings/classes/{classId}',
    accountEntrySubject: '{subject}',
    accountEntryBody: 'Hallo {name},\n\n{text}\n\nIhr Konto: {appUrl}/app/',
    reminderSubject: 'Erinnerung: Aktivieren Sie Ihr Konto bei {company}',
    reminderBody:
      'Hallo {name},\n\nDies ist eine Erinnerung, Ihr Konto bei {company} zu aktivieren: {appUrl}/activate/{token}.',
    whatsappCode: 'Ihr WhatsApp-Bestätigungscode für {company} lautet {code}. Er ist 10 Minuten gültig.',
  },
};
