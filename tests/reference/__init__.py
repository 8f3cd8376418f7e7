"""Slow, literal implementations of the papers' algorithms, written
independently of ``orangecontrib.relief.core`` to check it on tiny data:

* :mod:`.relief` -- Relief, ReliefF, RReliefF and myopic ReliefF
  (Kira & Rendell 1992; Kononenko 1994; Robnik-Sikonja & Kononenko 2003;
  Prat & Belanche 2006), with the diff, distance and neighbours the others
  build on;
* :mod:`.double` -- dReliefF and pdReliefF (Prat & Belanche 2006);
* :mod:`.classdep` -- CDRelief, IWCDRelief and the class-dependent kNN
  distance (Qiu & He 2019);
* :mod:`.rfsm` -- the Relief feature set measure (Arauzo-Azofra, Benitez &
  Castro 2004).

:mod:`.scikit_rebate_answers` is no implementation: it records
scikit-rebate 0.8.4's answers once, for the tests to read.
"""
