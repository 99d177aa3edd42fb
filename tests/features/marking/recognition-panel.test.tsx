import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RecognitionPanel } from '../../../src/features/marking/recognition-panel';

const counts = (stored: number, recognised = stored) => ({
  homeworkId: 3,
  stored,
  recognised,
  pending: stored - recognised,
  review: 0,
});

describe('RecognitionPanel', () => {
  it('says nothing is scanned only when no student has answers', () => {
    render(<RecognitionPanel recognition={counts(0)} scannedStudents={0} onShowReview={() => {}} />);
    expect(screen.getByText('还没有扫描上传的答题卡')).toBeInTheDocument();
  });

  it('does not claim nothing is scanned beside students whose scores came without pages', () => {
    render(<RecognitionPanel recognition={counts(0)} scannedStudents={146} onShowReview={() => {}} />);
    expect(screen.queryByText('还没有扫描上传的答题卡')).not.toBeInTheDocument();
    expect(screen.getByText('已有 146 名学生的成绩，没有扫描图像')).toBeInTheDocument();
  });

  it('follows recognition once pages are stored', () => {
    render(<RecognitionPanel recognition={counts(10, 4)} scannedStudents={3} onShowReview={() => {}} />);
    expect(screen.getByText('正在识别… 4/10')).toBeInTheDocument();
  });
});
