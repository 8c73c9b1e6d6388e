# -*- coding: utf-8 -*-
# The options every openflint module takes (module_utils/openflint.py common_argument_spec).
from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):
    DOCUMENTATION = r'''
options:
  bin_dir:
    description:
      - Directory holding the openflint tools (flint, mst, ibfwmgr). Default, the tools on C(PATH).
    type: path
  sysfs:
    description:
      - PCI sysfs root the tools read instead of C(/sys/bus/pci) (C(OPENFLINT_SYSFS_ROOT)).
    type: path
'''
