#!/usr/bin/python
# -*- coding: utf-8 -*-
# device_config: a device's non-volatile configuration (mstconfig's names) through `mst config --json`.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
---
module: device_config
short_description: Set a device's non-volatile configuration, idempotently
description:
  - Sets parameters of a device's non-volatile configuration (port link type, SR-IOV, number of
    VFs, ...) with mstconfig's names and value spellings, through
    C(mst config DEVICE set NAME=VALUE... -y --json).
  - C(changed) only when a next-boot value differed and was written (C(mst config) compares
    first and writes nothing when every parameter already has its value).
  - Check mode runs C(mst config ... set --no --json), which reports what would change and writes
    nothing. Diff mode shows the old and new values.
  - New values take effect at the device's next reset or reboot.
version_added: 0.1.0
author: openflint developers
extends_documentation_fragment:
  - openflint.firmware.common
options:
  device:
    description: Device name as mst takes it (a BDF, C(mt4115_pciconf0), C(sim:DIR), C(lid-N)).
    type: str
    required: true
  parameters:
    description: Parameter names and values, for example C(SRIOV_EN=true), C(NUM_OF_VFS=8), C(LINK_TYPE_P1=ETH).
    type: dict
    required: true
attributes:
  check_mode:
    support: full
  diff_mode:
    support: full
'''

EXAMPLES = r'''
- name: SR-IOV with 8 VFs and Ethernet on port 1 (from the next reset on)
  openflint.firmware.device_config:
    device: mt4119_pciconf0
    parameters:
      SRIOV_EN: true
      NUM_OF_VFS: 8
      LINK_TYPE_P1: ETH
'''

RETURN = r'''
changes:
  description: The parameters whose next-boot value was (check mode, would be) written.
  returned: always
  type: list
  elements: dict
  sample: [{name: NUM_OF_VFS, old: {value: 8, text: "8"}, new: {value: 2, text: "2"}}]
takes_effect:
  description: When the new values apply.
  returned: when something was written
  type: str
  sample: next reset
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.openflint.firmware.plugins.module_utils.openflint import (
    EXIT_DECLINED, ToolError, common_argument_spec, run_json)

# EXIT_DECLINED from mst: with --no, the dry run that found something to change.


def value_text(value):
    if isinstance(value, bool):
        return 'True' if value else 'False'
    return str(value)


def main():
    spec = common_argument_spec()
    spec.update(
        device=dict(type='str', required=True),
        parameters=dict(type='dict', required=True),
    )
    module = AnsibleModule(argument_spec=spec, supports_check_mode=True)
    p = module.params
    assignments = ['%s=%s' % (name, value_text(value)) for name, value in sorted(p['parameters'].items())]
    args = ['config', p['device'], 'set'] + assignments + (['--no'] if module.check_mode else ['-y'])
    try:
        rc, doc = run_json(module, 'mst', args, accept_rc=(0, EXIT_DECLINED) if module.check_mode else (0,))
    except ToolError as e:
        module.fail_json(**e.as_result())
    if rc == EXIT_DECLINED and 'changed' not in doc:
        module.fail_json(msg='mst config declined without saying what would change', tool_document=doc)
    changes = doc.get('changed') or []
    result = dict(changed=bool(changes), changes=changes)
    if doc.get('takes_effect'):
        result['takes_effect'] = doc['takes_effect']
    if module._diff:
        result['diff'] = dict(
            before_header='%s (next boot, before)' % p['device'],
            before=''.join('%s=%s\n' % (c['name'], (c.get('old') or {}).get('text')) for c in changes),
            after_header='%s (next boot, after)' % p['device'],
            after=''.join('%s=%s\n' % (c['name'], (c.get('new') or {}).get('text')) for c in changes))
    module.exit_json(**result)


if __name__ == '__main__':
    main()
