/** The report's "how to read this" texts: each says what its chart draws (internal). */

/** How to read a reliability diagram, for what it draws (bars: one model; lines: several) and its measure. */
export function howReliability(drawn: unknown, measure: 'confidence' | 'uncertainty' | 'probability'): string {
  const words = {
    confidence: {
      score: 'confidence',
      mean: 'confidence',
      outcome: 'accuracy',
      metric: 'ECE',
      over: 'accuracy falls short of confidence',
      under: 'accuracy exceeds it',
    },
    uncertainty: {
      score: 'uncertainty (normalized entropy: 0 = certain, 1 = uniform)',
      mean: 'uncertainty',
      outcome: 'top-1 error',
      metric: 'UCE',
      over: 'the error exceeds the uncertainty',
      under: 'it falls short of it',
    },
    probability: {
      score: 'predicted P(y = 1)',
      mean: 'prediction',
      outcome: 'observed frequency of y = 1',
      metric: 'binary ECE',
      over: 'the frequency falls short of the prediction (too high)',
      under: 'it exceeds it (too low)',
    },
  }[measure];
  const intro =
    measure === 'probability'
      ? 'The positive-class diagram of scikit-learn’s calibration_curve: all predictions, binned by their predicted probability of class 1, against how often class 1 occurred. '
      : '';
  const common = `The vertical rules are 95% Wilson intervals of each bin's ${words.outcome}: a gap inside its rule is within the noise of the bin. Below: predictions per bin on a square-root scale, so bins of a few predictions still show.`;
  return drawn === 'bars'
    ? `${intro}Predictions are grouped into bins of ${words.score}; each blue bar's height is the ${words.outcome} in its bin. The coloured part between the bar's top and the bin's mean ${words.mean} is the gap: vermillion where ${words.over}, purple where ${words.under}. A calibrated model reaches the dashed diagonal. ${common} The title gives the ${words.metric}, the count-weighted mean gap.`
    : `${intro}One line per model (colour and dash in the legend) through its bins' points (mean ${words.mean}, ${words.outcome}); a point's area grows with the number of predictions in its bin. A calibrated model follows the dashed diagonal. ${common} The legend gives each model's ${words.metric}.`;
}

export const HOW = {
  riskCoverage:
    'Keep only the most confident predictions: the x axis is the share kept, the y axis the error among them. Lower is better everywhere; the area (AURC, in the legend) also rewards making fewer errors, which AUROC does not.',
  rejection:
    'Reject predictions whose normalized entropy exceeds a threshold H_max, moving from left (keep all) to right (keep only very certain ones). A useful uncertainty makes the error of the kept predictions fall steadily.',
  roc: 'How well confidence separates correct from wrong predictions: accepting predictions from the most confident down, the share of correct ones accepted (y) against the share of wrong ones (x). The diagonal is chance; the area is the AUROC.',
  pr: 'Finding the wrong predictions by their uncertainty: precision (share of flagged predictions that are wrong) against recall (share of wrong ones flagged). The area is the AUPR, whose baseline is the error rate.',
  bins: 'ECE, ACE and UCE (colours) computed with 2 to 40 bins, one dash per model. A metric that changes a lot with the number of bins ranks models unreliably (the UCE paper, Fig. 1).',
  temperature:
    'NLL, ECE and UCE after temperature scaling softmax(z / T), as T varies (log scale, spanning the temperatures computed). The diamond marks the NLL-optimal T; comparing models at their own optimum separates calibration from sharpness (the UCE paper, Fig. 5).',
  ood: 'A batch of 100 in-distribution inputs is replaced, one by one, by out-of-distribution inputs; the line is the batch’s mean normalized entropy (band: ±1 standard deviation over 10 random batches). A useful uncertainty rises steadily.',
};

/** The equal-mass view: always points on lines (see `reliabilityDrawn`). */
export function howEqualMass(models: number): string {
  return `The same predictions cut into bins that hold equal numbers of predictions (equal-mass or quantile bins, scikit-learn’s strategy='quantile'); predictions with the same confidence stay in one bin, so ties can leave fewer bins. ${models === 1 ? 'Each point' : 'One line per model (colour and dash in the legend); each point'} is a bin at its mean confidence and accuracy, its area growing with the predictions in the bin; the vertical rules are 95% Wilson intervals. Where predictions crowd (near confidence 1 for most networks), these bins resolve what one wide equal-width bin averages. A calibrated model follows the dashed diagonal; ${models === 1 ? 'the title' : 'the legend'} gives the ECE over these bins, and the panel below the predictions per bin (√ scale).`;
}

/** relplot's smooth diagram, with the band's resamples; of P(y = 1) for two classes. */
export function howSmooth(models: number, resamples: number, binary: boolean): string {
  const [outcome, score] = binary ? ['The frequency of y = 1', 'the predicted P(y = 1)'] : ['Accuracy', 'confidence'];
  return `relplot’s smooth reliability diagram: no bins, so nothing depends on where bin edges fall. ${outcome} is smoothed over ${score} by a Gaussian kernel whose bandwidth σ is where it equals the smooth ECE (smECE); ${models === 1 ? 'the blue line is the smoothed curve and the light-blue band' : 'one line per model (colour and dash in the legend), and a shaded band in its colour,'} its 95% bootstrap band (${resamples} resamples of the predictions). The curve is drawn only where at least one prediction lies within the kernel’s reach; the panel below shows the density of the predictions. A calibrated model follows the dashed diagonal; ${models === 1 ? 'the title' : 'the legend'} gives smECE and σ.`;
}

/** Guo et al.'s histogram. */
export function howHistogram(models: number): string {
  return `Guo et al.’s confidence histogram${models === 1 ? '' : ', one panel per model'}: the share of predictions in each confidence bin (linear scale), with the accuracy as a solid black line and the average confidence as a dashed vermillion line. Average confidence to the right of the accuracy means over-confident on average, to the left under-confident; the title gives both numbers.`;
}

/** netcal's per-class diagrams: which classes are shown. */
export function howClasswise(models: number, shown: readonly string[], numClasses: number): string {
  const which =
    shown.length === numClasses
      ? `All ${numClasses} classes are shown.`
      : `The ${shown.length} most frequent of the ${numClasses} classes are shown (by number of labels): ${shown.join(', ')}.`;
  return `Class-wise reliability (netcal’s per-class diagrams): one panel per class, the probability the model gives that class against how often it is the label, over all predictions — the bins the SCE averages. ${models === 1 ? 'Each point' : 'One line per model (colour and dash in the legend); each point'} is a bin, its area growing with the predictions in it; the vertical rules are 95% Wilson intervals and the dashed diagonal is perfect calibration. Each panel’s title gives the class’s number of labels${models === 1 ? ' and its class-wise ECE' : ''}. ${which}`;
}
