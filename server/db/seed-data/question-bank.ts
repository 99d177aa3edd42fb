/** The demo 题库, one bank per subject, in the order the subject picker lists them. */
import { chineseBank } from './question-bank-chinese';
import { englishBank } from './question-bank-english';
import { mathBank } from './question-bank-math';
import type { SeedSubjectBank } from './question-bank.types';

export const questionBanks: SeedSubjectBank[] = [mathBank, chineseBank, englishBank];
