# SPDX-License-Identifier: BSD-3-Clause
# ReFrame checks for the cxd diagnostics (docs/site-tools.md):
#
#   cxd_loopback_bw   one NIC writing to itself (cxi_gpu_loopback_bw), Gb/s;
#                     one test per NIC with  -P nic=cxi0,cxi1,cxi2,cxi3
#   cxd_pair_bw       a pair's bandwidth (cxi_write_bw --local), MB/s
#   cxd_pair_lat      a pair's median latency (cxi_send_lat --local), us;
#                     both with -S launched=true: two tasks of the
#                     partition's launcher (srun -n2, mpirun -np 2), the
#                     pair between the nodes they land on, each task taking
#                     its role from its rank (docs/site.md)
#   cxd_sweep         every pair of an MPI job (cxi_sweep): its verdict is the
#                     sanity; the median bandwidth and latency and the run's
#                     resolution are the performance values
#   cxd_sweep_budget  the same within a time budget (cxi_sweep --budget): a
#                     covering plan's pairs, flagged ones retested; also the
#                     time it took (-S cxd_sweep_budget.budget=SECONDS)
#
# References are variables, so a site sets them per system in its own
# config or on the command line (-S cxd_pair_bw.ref=23800); 0 means none.
# A figure beyond its reference fails the check. Every program is found in
# the variable bindir (or $CXD_BIN_DIR, else PATH).
#
#   reframe -C SITE_CONFIG -c contrib/reframe/cxd_checks.py -r \
#           -S cxd_loopback_bw.ref=180 -P nic=cxi0,cxi1
import json
import os

import reframe as rfm
import reframe.utility.sanity as sn
import reframe.utility.typecheck as typ
from reframe.core.builtins import (performance_function, run_before,
                                   sanity_function, variable)


class cxd_base(rfm.RunOnlyRegressionTest):
    '''What every cxd check shares: where the programs are, the provider,
    the JSON document a run prints, and a reference with its tolerance.'''

    valid_systems = ['*']
    valid_prog_environs = ['*']
    tags = {'cxd', 'network'}
    num_tasks = 1
    bindir = variable(str, value=os.environ.get('CXD_BIN_DIR', ''))
    #: libfabric provider ('' lets the tool choose: cxi where present)
    provider = variable(str, value='')
    #: the reference (the unit of the check's figure); 0: none
    ref = variable(float, value=0.0)
    #: how far below (bandwidth) or above (latency) it may go, a fraction
    tolerance = variable(float, value=0.1)

    def prog(self, name):
        return os.path.join(self.bindir, name) if self.bindir else name

    def prov_opts(self):
        return ['--provider', self.provider] if self.provider else []

    def pair_opts(self):
        '''--local on one node; or a pair across the launcher's two tasks.'''
        if not getattr(self, 'launched', False):
            return ['--local']
        self.num_tasks = 2
        return []

    def doc(self, name=None):
        '''The run's JSON: stdout, or a file the run wrote.'''
        path = name or self.stdout.evaluate()
        with open(os.path.join(self.stagedir, path)) as f:
            return json.load(f)

    def set_reference(self, var, unit, higher_is_better=True):
        if self.ref > 0:
            bounds = ((-self.tolerance, None) if higher_is_better
                      else (None, self.tolerance))
            self.reference = {'*': {var: (self.ref, *bounds, unit)}}


@rfm.simple_test
class cxd_loopback_bw(cxd_base):
    descr = 'Loopback write bandwidth of one NIC (cxi_gpu_loopback_bw)'
    #: the NIC (-d); '' is the provider's first. -P nic=a,b for one each
    nic = variable(str, value='')
    size = variable(int, value=524288)
    iters = variable(int, value=25)

    @run_before('run')
    def set_command(self):
        self.executable = self.prog('cxi_gpu_loopback_bw')
        self.executable_opts = ((['-d', self.nic] if self.nic else []) +
                                ['-s', str(self.size), '-i', str(self.iters),
                                 '--json'] + self.prov_opts())

    @run_before('performance')
    def reference_from_variables(self):
        self.set_reference('bw', 'Gb/s')

    @sanity_function
    def one_result(self):
        return sn.assert_eq(sn.len(self.doc()['results']), 1,
                            msg='no result for {size} B')

    @performance_function('Gb/s')
    def bw(self):
        return self.doc()['results'][0]['bw_gb_s']


class cxd_pair(cxd_base):
    '''A pair tool's run (--local, or two launcher tasks): what the
    bandwidth and latency checks share.'''
    size = variable(int, value=8)
    iters = variable(int, value=1000)
    #: two launcher tasks instead of --local (see the top of this file)
    launched = variable(bool, value=False)

    def extra_opts(self):
        return []

    @run_before('run')
    def set_command(self):
        self.executable = self.prog(self.tool)
        self.executable_opts = (self.pair_opts() +
                                ['-s', str(self.size), '-n',
                                 str(self.iters), '--json'] +
                                self.extra_opts() + self.prov_opts())

    @sanity_function
    def one_result(self):
        return sn.assert_eq(sn.len(self.doc()['results']), 1)


@rfm.simple_test
class cxd_pair_bw(cxd_pair):
    descr = 'A pair\'s bandwidth on this node (cxi_write_bw --local)'
    tool = variable(str, value='cxi_write_bw')
    size = 65536
    bidirectional = variable(bool, value=False)

    def extra_opts(self):
        return ['-b'] if self.bidirectional else []

    @run_before('performance')
    def reference_from_variables(self):
        self.set_reference('bw', 'MB/s')

    @performance_function('MB/s')
    def bw(self):
        return self.doc()['results'][0]['bw_mb_s']


@rfm.simple_test
class cxd_pair_lat(cxd_pair):
    descr = 'A pair\'s median latency on this node (cxi_send_lat --local)'
    tool = variable(str, value='cxi_send_lat')

    @run_before('performance')
    def reference_from_variables(self):
        self.set_reference('lat', 'us', higher_is_better=False)

    @performance_function('us')
    def lat(self):
        return self.doc()['results'][0]['p50_us']


@rfm.simple_test
class cxd_sweep(cxd_base):
    descr = 'Every pair of the job\'s ranks (cxi_sweep): verdict and medians'
    #: ranks of the job (num_tasks): one per node, or per NIC
    ranks = variable(int, value=4)
    size = variable(int, value=65536)
    iters = variable(int, value=10)
    #: more options for cxi_sweep (--topology FILE, --baseline FILE...)
    sweep_opts = variable(typ.List[str], value=[])
    #: options for the launcher (srun: --mpi=pmix)
    launcher_opts = variable(typ.List[str], value=[])
    #: verdicts the sanity accepts (a busy system may add INCONCLUSIVE)
    accept = variable(typ.List[str], value=['PASS'])
    #: references of the two medians; ref/tolerance above are unused
    ref_bw = variable(float, value=0.0)
    ref_lat = variable(float, value=0.0)

    @run_before('run')
    def set_command(self):
        self.num_tasks = self.ranks
        self.executable = self.prog('cxi_sweep')
        self.executable_opts = (['--json', 'sweep.json', '-s',
                                 str(self.size), '-n', str(self.iters)] +
                                self.prov_opts() + self.sweep_opts)
        self.job.launcher.options = list(self.launcher_opts)

    @run_before('performance')
    def reference_from_variables(self):
        ref = {}
        if self.ref_bw > 0:
            ref['bw_median'] = (self.ref_bw, -self.tolerance, None, 'MB/s')
        if self.ref_lat > 0:
            ref['lat_median'] = (self.ref_lat, None, self.tolerance, 'us')
        if ref:
            self.reference = {'*': ref}

    @sanity_function
    def verdict_accepted(self):
        # The sweep's own verdict: PASS, FAIL (outliers confirmed) or
        # INCONCLUSIVE (too noisy to vouch), with why on the same line.
        verdict = sn.extractsingle(r'^Verdict: (\w+)', self.stdout, 1)
        return sn.assert_in(verdict, self.accept,
                            msg='the sweep said {0} (see its "Verdict:" '
                                'line), not one of %s' % ','.join(self.accept))

    def stats(self, metric):
        return self.doc('sweep.json')['link_stats'][metric]

    def resolution(self, metric):
        return self.doc('sweep.json')['resolution'][metric]['tolerance_pct']

    @performance_function('MB/s')
    def bw_median(self):
        return self.stats('bw_mb_s')['median']

    @performance_function('us')
    def lat_median(self):
        return self.stats('lat_us')['median']

    @performance_function('%')
    def bw_resolution(self):
        return self.resolution('bw')

    @performance_function('%')
    def lat_resolution(self):
        return self.resolution('lat')


@rfm.simple_test
class cxd_sweep_budget(cxd_sweep):
    descr = ('A covering plan of the job\'s ranks within a time budget '
             '(cxi_sweep --budget): verdict, medians, time taken')
    #: seconds for the plan (--budget); one that cannot fit stops the sweep
    #: before measuring (exit 2, the budget it needs named): no verdict,
    #: so the sanity fails
    budget = variable(float, value=30.0)

    @run_before('run')
    def add_budget(self):
        self.executable_opts += ['--budget', '%g' % self.budget]

    @performance_function('s')
    def budget_taken(self):
        return self.doc('sweep.json')['budget']['taken_s']
