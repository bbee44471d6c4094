// French, read without accents (é → e: see normalise.ts): orders to the model. Recipes "ignorent" the
// original recipe and docs give "instructions"; a finding needs earlier or system instructions, the
// user kept out, or data sent somewhere.
import { latinPattern, SECRET_FILE, URL, within } from './shared';

const USER = "(?:l'|l’)?(?:utilisateur|utilisatrice|usager)s?";
const DATA = '(?:donnees|contenu|historique|conversation|messages|reponses|fichiers?|cles|cle|mots\\s+de\\s+passe|mot\\s+de\\s+passe|identifiants|jetons?|tokens?|secrets|cookies)';

export const FRENCH = [
  latinPattern('ignore-instructions', `\\b(?:ignor|oubli|contourn|outrepass)\\w*\\s+(?:[\\w'’-]+['’]?\\s*){0,3}?(?:instructions?|consignes?|regles?|directives?|prompt|invite)\\s+(?:[\\w'’-]+\\s+){0,1}?(?:precedent|anterieur|systeme|initial|d'origine|ci-dessus)\\w*|\\b(?:ignor|oubli)\\w*\\s+(?:tes|vos|les)\\s+(?:consignes|instructions|regles)\\s+systeme`),
  latinPattern('hide-from-user', `\\bne\\s+(?:dis|dites|revele|revelez|montre|montrez|mentionne|mentionnez|signale|signalez)\\s+(?:rien|pas|jamais)${within(20)}a\\s+${USER}|\\bsans\\s+(?:le\\s+)?(?:dire|signaler|mentionner)\\s+a\\s+${USER}`),
  latinPattern('without-user-knowing', `\\b(?:discretement|secretement|en\\s+secret|a\\s+l'insu\\s+de)\\b|\\bsans\\s+que\\s+${USER}\\s+(?:ne\\s+)?(?:le\\s+)?(?:sache|remarque|voie)`),
  latinPattern('sensitive-file-request', `\\b(?:lis|lisez|ouvre|ouvrez|envoie|envoyez|transmets|transmettez|copie|copiez|colle|collez|affiche|affichez|inclus|incluez|joins|joignez|televerse|televersez|imprime)\\w*\\s+${within(40)}${SECRET_FILE}`),
  latinPattern('read-secrets', `\\b(?:vole|volez|envoie|envoyez|transmets|transmettez|copie|copiez|colle|collez|affiche|affichez|divulgue|divulguez|recupere)\\w*\\s+${within(30)}(?:mots?\\s+de\\s+passe|cles?\\s+(?:api|privees?|secretes?)|identifiants|jetons?\\s+d'acces|tokens?)\\b`),
  latinPattern('exfiltrate', `\\b(?:envoie|envoyez|transmets|transmettez|televerse|televersez|poste|postez|publie|transfere|transferez)\\w*\\s+(?:[\\w'’-]+['’]?\\s*){0,4}?${DATA}\\b${within(60)}${URL}`),
  latinPattern('tool-shadowing', `\\bavant\\s+d['’]?\\s*(?:utiliser|appeler|lancer|executer)\\s+(?:tout|n'importe\\s+quel|un|chaque)\\s+(?:autre\\s+)?outil${within(20)}(?:tu\\s+dois|vous\\s+devez|il\\s+faut)\\s+(?:toujours\\s+)?(?:d['’]abord|toujours|d'abord)`),
  latinPattern('skip-confirmation', `\\bsans\\s+(?:demander|attendre|solliciter)\\s+(?:la\\s+|l['’]|le\\s+)?(?:confirmation|permission|autorisation|accord|consentement|avis)${within(10)}(?:de\\s+)?${USER}|\\bsans\\s+demander\\s+a\\s+${USER}`),
  latinPattern('role-override', `\\b(?:a\\s+partir\\s+de\\s+maintenant|desormais|dorenavant|a\\s+present),?\\s+(?:tu\\s+es|vous\\s+etes|tu\\s+dois|tu\\s+n'as)\\b|\\btu\\s+es\\s+(?:maintenant|desormais)\\s+(?:un|une)\\b|\\bnouvelles\\s+(?:consignes|instructions)\\s*:`),
  latinPattern('reveal-system-prompt', `\\b(?:affiche|affichez|revele|revelez|montre|montrez|repete|repetez|donne|donnez)\\w*\\s+(?:[\\w'’-]+\\s+){0,2}?(?:prompt|invite|consignes?|instructions?)\\s+systeme\\b`),
];
