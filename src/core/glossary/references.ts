/**
 * The published sources behind every metric and test the core computes, cited the way
 * scikit-learn's References sections cite them: authors, title, venue, year, and a DOI or URL.
 * Entries of the glossary name these by id; `formatReference` renders one as one line.
 */

export interface Reference {
  authors: string;
  year: number;
  title: string;
  /** Journal, proceedings or publisher, with volume and pages where they exist. */
  venue: string;
  /** A DOI (without `https://doi.org/`) or, when there is none, a URL. */
  doi?: string;
  url?: string;
}

export const REFERENCES = {
  brier1950: {
    authors: 'G. W. Brier',
    year: 1950,
    title: 'Verification of forecasts expressed in terms of probability',
    venue: 'Monthly Weather Review 78(1):1–3',
    doi: '10.1175/1520-0493(1950)078<0001:VOFEIT>2.0.CO;2',
  },
  good1952: {
    authors: 'I. J. Good',
    year: 1952,
    title: 'Rational decisions',
    venue: 'Journal of the Royal Statistical Society, Series B 14(1):107–114',
    doi: '10.1111/j.2517-6161.1952.tb00104.x',
  },
  matthews1975: {
    authors: 'B. W. Matthews',
    year: 1975,
    title: 'Comparison of the predicted and observed secondary structure of T4 phage lysozyme',
    venue: 'Biochimica et Biophysica Acta (BBA) – Protein Structure 405(2):442–451',
    doi: '10.1016/0005-2795(75)90109-9',
  },
  gorodkin2004: {
    authors: 'J. Gorodkin',
    year: 2004,
    title: 'Comparing two K-category assignments by a K-category correlation coefficient',
    venue: 'Computational Biology and Chemistry 28(5–6):367–374',
    doi: '10.1016/j.compbiolchem.2004.09.006',
  },
  chicco2020: {
    authors: 'D. Chicco, G. Jurman',
    year: 2020,
    title:
      'The advantages of the Matthews correlation coefficient (MCC) over F1 score and accuracy in binary classification evaluation',
    venue: 'BMC Genomics 21:6',
    doi: '10.1186/s12864-019-6413-7',
  },
  vanRijsbergen1979: {
    authors: 'C. J. van Rijsbergen',
    year: 1979,
    title: 'Information Retrieval (2nd ed.), chapter 7: Evaluation',
    venue: 'Butterworths, London',
    url: 'http://www.dcs.gla.ac.uk/Keith/Preface.html',
  },
  sokolova2009: {
    authors: 'M. Sokolova, G. Lapalme',
    year: 2009,
    title: 'A systematic analysis of performance measures for classification tasks',
    venue: 'Information Processing & Management 45(4):427–437',
    doi: '10.1016/j.ipm.2009.03.002',
  },
  brodersen2010: {
    authors: 'K. H. Brodersen, C. S. Ong, K. E. Stephan, J. M. Buhmann',
    year: 2010,
    title: 'The balanced accuracy and its posterior distribution',
    venue: 'Proc. 20th International Conference on Pattern Recognition (ICPR), 3121–3124',
    doi: '10.1109/ICPR.2010.764',
  },
  pedregosa2011: {
    authors: 'F. Pedregosa et al.',
    year: 2011,
    title: 'Scikit-learn: Machine Learning in Python',
    venue: 'Journal of Machine Learning Research 12:2825–2830',
    url: 'https://jmlr.org/papers/v12/pedregosa11a.html',
  },
  liu2019: {
    authors: 'Z. Liu, Z. Miao, X. Zhan, J. Wang, B. Gong, S. X. Yu',
    year: 2019,
    title: 'Large-Scale Long-Tailed Recognition in an Open World',
    venue: 'IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)',
    url: 'https://arxiv.org/abs/1904.05160',
  },
  fang2023: {
    authors: 'C. Fang, D. Zhang, W. Zheng, X. Li, L. Yang, L. Cheng, J. Han',
    year: 2023,
    title: 'Revisiting Long-tailed Image Classification: Survey and Benchmarks with New Evaluation Metrics',
    venue: 'arXiv preprint 2302.01507',
    url: 'https://arxiv.org/abs/2302.01507',
  },
  shimodaira2000: {
    authors: 'H. Shimodaira',
    year: 2000,
    title: 'Improving predictive inference under covariate shift by weighting the log-likelihood function',
    venue: 'Journal of Statistical Planning and Inference 90(2):227–244',
    doi: '10.1016/S0378-3758(00)00115-4',
  },
  sugiyama2007: {
    authors: 'M. Sugiyama, M. Krauledat, K.-R. Müller',
    year: 2007,
    title: 'Covariate Shift Adaptation by Importance Weighted Cross Validation',
    venue: 'Journal of Machine Learning Research 8:985–1005',
    url: 'https://jmlr.org/papers/v8/sugiyama07a.html',
  },
  lipton2018: {
    authors: 'Z. C. Lipton, Y.-X. Wang, A. J. Smola',
    year: 2018,
    title: 'Detecting and Correcting for Label Shift with Black Box Predictors',
    venue: 'International Conference on Machine Learning (ICML)',
    url: 'https://arxiv.org/abs/1802.03916',
  },
  sagawa2020: {
    authors: 'S. Sagawa, P. W. Koh, T. B. Hashimoto, P. Liang',
    year: 2020,
    title:
      'Distributionally Robust Neural Networks for Group Shifts: On the Importance of Regularization for Worst-Case Generalization',
    venue: 'International Conference on Learning Representations (ICLR)',
    url: 'https://arxiv.org/abs/1911.08731',
  },
  chow1970: {
    authors: 'C. K. Chow',
    year: 1970,
    title: 'On optimum recognition error and reject tradeoff',
    venue: 'IEEE Transactions on Information Theory 16(1):41–46',
    doi: '10.1109/TIT.1970.1054406',
  },
  elYaniv2010: {
    authors: 'R. El-Yaniv, Y. Wiener',
    year: 2010,
    title: 'On the Foundations of Noise-free Selective Classification',
    venue: 'Journal of Machine Learning Research 11:1605–1641',
    url: 'https://jmlr.org/papers/v11/el-yaniv10a.html',
  },
  geifman2017: {
    authors: 'Y. Geifman, R. El-Yaniv',
    year: 2017,
    title: 'Selective Classification for Deep Neural Networks',
    venue: 'Advances in Neural Information Processing Systems 30 (NeurIPS)',
    url: 'https://arxiv.org/abs/1705.08500',
  },
  geifman2019: {
    authors: 'Y. Geifman, G. Uziel, R. El-Yaniv',
    year: 2019,
    title: 'Bias-Reduced Uncertainty Estimation for Deep Neural Classifiers',
    venue: 'International Conference on Learning Representations (ICLR)',
    url: 'https://arxiv.org/abs/1805.08206',
  },
  naeini2015: {
    authors: 'M. P. Naeini, G. F. Cooper, M. Hauskrecht',
    year: 2015,
    title: 'Obtaining Well Calibrated Probabilities Using Bayesian Binning',
    venue: 'Proc. AAAI Conference on Artificial Intelligence 29(1):2901–2907',
    doi: '10.1609/aaai.v29i1.9602',
  },
  guo2017: {
    authors: 'C. Guo, G. Pleiss, Y. Sun, K. Q. Weinberger',
    year: 2017,
    title: 'On Calibration of Modern Neural Networks',
    venue: 'International Conference on Machine Learning (ICML), PMLR 70:1321–1330',
    url: 'https://arxiv.org/abs/1706.04599',
  },
  nixon2019: {
    authors: 'J. Nixon, M. W. Dusenberry, L. Zhang, G. Jerfel, D. Tran',
    year: 2019,
    title: 'Measuring Calibration in Deep Learning',
    venue: 'CVPR Workshops',
    url: 'https://arxiv.org/abs/1904.01685',
  },
  horvitz1952: {
    authors: 'D. G. Horvitz, D. J. Thompson',
    year: 1952,
    title: 'A Generalization of Sampling Without Replacement From a Finite Universe',
    venue: 'Journal of the American Statistical Association 47(260):663–685',
    doi: '10.1080/01621459.1952.10483446',
  },
  davis2006: {
    authors: 'J. Davis, M. Goadrich',
    year: 2006,
    title: 'The relationship between Precision-Recall and ROC curves',
    venue: 'International Conference on Machine Learning (ICML), 233–240',
    doi: '10.1145/1143844.1143874',
  },
  fawcett2006: {
    authors: 'T. Fawcett',
    year: 2006,
    title: 'An introduction to ROC analysis',
    venue: 'Pattern Recognition Letters 27(8):861–874',
    doi: '10.1016/j.patrec.2005.10.010',
  },
  jarvelin2002: {
    authors: 'K. Järvelin, J. Kekäläinen',
    year: 2002,
    title: 'Cumulated gain-based evaluation of IR techniques',
    venue: 'ACM Transactions on Information Systems 20(4):422–446',
    doi: '10.1145/582415.582418',
  },
  sakai2014: {
    authors: 'T. Sakai',
    year: 2014,
    title: 'Statistical reform in information retrieval?',
    venue: 'ACM SIGIR Forum 48(1):3–12',
    doi: '10.1145/2641383.2641385',
  },
  manning2008: {
    authors: 'C. D. Manning, P. Raghavan, H. Schütze',
    year: 2008,
    title: 'Introduction to Information Retrieval, chapter 8: Evaluation in information retrieval',
    venue: 'Cambridge University Press',
    url: 'https://nlp.stanford.edu/IR-book/',
  },
  trecEval: {
    authors: 'NIST',
    year: 2006,
    title: 'trec_eval: the standard evaluation tool of the Text REtrieval Conference',
    venue: 'software',
    url: 'https://github.com/usnistgov/trec_eval',
  },
  voorhees1999: {
    authors: 'E. M. Voorhees',
    year: 1999,
    title: 'The TREC-8 Question Answering Track Report',
    venue: 'Proc. 8th Text REtrieval Conference (TREC-8), NIST Special Publication 500-246',
    url: 'https://trec.nist.gov/pubs/trec8/papers/qa_report.pdf',
  },
  schein2002: {
    authors: 'A. I. Schein, A. Popescul, L. H. Ungar, D. M. Pennock',
    year: 2002,
    title: 'Methods and metrics for cold-start recommendations',
    venue: 'Proc. 25th ACM SIGIR Conference, 253–260',
    doi: '10.1145/564376.564421',
  },
  ziegler2005: {
    authors: 'C.-N. Ziegler, S. M. McNee, J. A. Konstan, G. Lausen',
    year: 2005,
    title: 'Improving recommendation lists through topic diversification',
    venue: 'Proc. 14th International World Wide Web Conference (WWW), 22–32',
    doi: '10.1145/1060745.1060754',
  },
  ge2010: {
    authors: 'M. Ge, C. Delgado-Battenfeld, D. Jannach',
    year: 2010,
    title: 'Beyond accuracy: evaluating recommender systems by coverage and serendipity',
    venue: 'Proc. 4th ACM Conference on Recommender Systems (RecSys), 257–260',
    doi: '10.1145/1864708.1864761',
  },
  zhou2010: {
    authors: 'T. Zhou, Z. Kuscsik, J.-G. Liu, M. Medo, J. R. Wakeling, Y.-C. Zhang',
    year: 2010,
    title: 'Solving the apparent diversity-accuracy dilemma of recommender systems',
    venue: 'Proceedings of the National Academy of Sciences 107(10):4511–4515',
    doi: '10.1073/pnas.1000488107',
  },
  lops2011: {
    authors: 'P. Lops, M. de Gemmis, G. Semeraro',
    year: 2011,
    title: 'Content-based Recommender Systems: State of the Art and Trends',
    venue: 'Recommender Systems Handbook, Springer, 73–105',
    doi: '10.1007/978-0-387-85820-3_3',
  },
  student1908: {
    authors: 'Student (W. S. Gosset)',
    year: 1908,
    title: 'The probable error of a mean',
    venue: 'Biometrika 6(1):1–25',
    doi: '10.1093/biomet/6.1.1',
  },
  wilcoxon1945: {
    authors: 'F. Wilcoxon',
    year: 1945,
    title: 'Individual comparisons by ranking methods',
    venue: 'Biometrics Bulletin 1(6):80–83',
    doi: '10.2307/3001968',
  },
  holm1979: {
    authors: 'S. Holm',
    year: 1979,
    title: 'A simple sequentially rejective multiple test procedure',
    venue: 'Scandinavian Journal of Statistics 6(2):65–70',
    url: 'https://www.jstor.org/stable/4615733',
  },
  cohen1988: {
    authors: 'J. Cohen',
    year: 1988,
    title: 'Statistical Power Analysis for the Behavioral Sciences (2nd ed.)',
    venue: 'Lawrence Erlbaum Associates',
    doi: '10.4324/9780203771587',
  },
  lakens2013: {
    authors: 'D. Lakens',
    year: 2013,
    title:
      'Calculating and reporting effect sizes to facilitate cumulative science: a practical primer for t-tests and ANOVAs',
    venue: 'Frontiers in Psychology 4:863',
    doi: '10.3389/fpsyg.2013.00863',
  },
  efron1993: {
    authors: 'B. Efron, R. J. Tibshirani',
    year: 1993,
    title: 'An Introduction to the Bootstrap',
    venue: 'Chapman & Hall/CRC',
    doi: '10.1201/9780429246593',
  },
  mcnemar1947: {
    authors: 'Q. McNemar',
    year: 1947,
    title: 'Note on the sampling error of the difference between correlated proportions or percentages',
    venue: 'Psychometrika 12(2):153–157',
    doi: '10.1007/BF02295996',
  },
  benjamini1995: {
    authors: 'Y. Benjamini, Y. Hochberg',
    year: 1995,
    title: 'Controlling the false discovery rate: a practical and powerful approach to multiple testing',
    venue: 'Journal of the Royal Statistical Society, Series B 57(1):289–300',
    doi: '10.1111/j.2517-6161.1995.tb02031.x',
  },
  davison1997: {
    authors: 'A. C. Davison, D. V. Hinkley',
    year: 1997,
    title: 'Bootstrap Methods and their Application',
    venue: 'Cambridge University Press',
    doi: '10.1017/CBO9780511802843',
  },
  virtanen2020: {
    authors: 'P. Virtanen et al.',
    year: 2020,
    title: 'SciPy 1.0: fundamental algorithms for scientific computing in Python',
    venue: 'Nature Methods 17:261–272',
    doi: '10.1038/s41592-019-0686-2',
  },
  harris2020: {
    authors: 'C. R. Harris et al.',
    year: 2020,
    title: 'Array programming with NumPy',
    venue: 'Nature 585:357–362',
    doi: '10.1038/s41586-020-2649-2',
  },
} as const satisfies Record<string, Reference>;

export type ReferenceId = keyof typeof REFERENCES;

/** The link of a reference: `https://doi.org/<doi>`, else its URL. */
export function referenceLink(r: Reference): string {
  return r.doi ? `https://doi.org/${r.doi}` : (r.url ?? '');
}

/** One line: `Authors (year). Title. Venue. https://doi.org/…`. */
export function formatReference(r: Reference): string {
  const link = referenceLink(r);
  return `${r.authors} (${r.year}). ${r.title}. ${r.venue}.${link ? ` ${link}` : ''}`;
}

/** Short in-text form: `Geifman & El-Yaniv 2017`, `Sokolova et al. 2009` for three or more authors. */
export function citeShort(r: Reference): string {
  const names = r.authors
    .replace(/ et al\.$/, '')
    .split(/,\s*/)
    .map((a) =>
      a
        .replace(/\s*\(.*\)$/, '')
        .trim()
        .split(/\s+/)
        .pop()!,
    );
  const etAl = / et al\.$/.test(r.authors) || names.length > 2;
  const who = etAl ? `${names[0]} et al.` : names.join(' & ');
  return `${who} ${r.year}`;
}
