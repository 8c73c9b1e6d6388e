#!/usr/bin/python
# -*- coding: utf-8 -*-
# device_facts: firmware facts of every device on a host, from `flint -d DEV query --json`.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
---
module: device_facts
short_description: Firmware facts of the adapters and switches on a host
description:
  - Queries every device with C(flint -d DEVICE query --json) and returns its image format,
    the firmware version on flash and the one running, the PSID and the board identity
    (base GUID, base MAC, VSD).
  - The devices are the ones C(mst status --json) lists, unless O(devices) names them
    (for example simulated devices C(sim:DIR), in-band C(lid-N) or remote C(HOST:PORT,DEVICE)).
  - Only the tools' JSON contract is read (docs/json.md in openflint); a tool speaking another
    contract version is refused.
  - Nothing is written to any device.
version_added: 0.1.0
author: openflint developers
extends_documentation_fragment:
  - openflint.firmware.common
options:
  devices:
    description:
      - Device names as flint takes them with C(-d).
      - Default, every PCI function C(mst status --json) lists (its MST name).
    type: list
    elements: str
  fail_on_error:
    description:
      - Fail when a device cannot be queried. The facts of the other devices are returned either way.
    type: bool
    default: true
attributes:
  check_mode:
    support: full
  diff_mode:
    support: none
  facts:
    support: full
notes:
  - A device whose flash holds no valid image is reported with C(ok=false) and its error; it is
    not a failure, so that a later burn can repair it.
'''

EXAMPLES = r'''
- name: Firmware facts of every device mst status lists
  openflint.firmware.device_facts:

- name: Facts of two simulated devices, with the tools from a build tree
  openflint.firmware.device_facts:
    devices:
      - sim:/var/tmp/hca0
      - sim:/var/tmp/hca1
    bin_dir: /opt/openflint/bin

- name: Show each device's running firmware
  ansible.builtin.debug:
    msg: "{{ item.key }} runs {{ item.value.running_fw_version }}"
  loop: "{{ ansible_facts.openflint_devices | dict2items }}"
'''

RETURN = r'''
ansible_facts:
  description: Facts added to the host.
  returned: always
  type: dict
  contains:
    openflint_devices:
      description: One entry per device name.
      type: dict
      returned: always
      sample:
        "sim:/var/tmp/hca0":
          ok: true
          name: "sim:/var/tmp/hca0"
          model: ConnectX-4
          part_number: MT27700
          hw_id: "0x209"
          format: FS3
          flash_fw_version: 12.28.2006
          running_fw_version: 12.27.1016
          running_psid: MT_2190110032
          recovery: false
          psid: MT_2190110032
          release_date: 1.7.2020
          description: ""
          flash_chip: MX25L16
          flash_size: 2097152
          identity:
            base_guid: {base: "0x0002c90300a1b2c0", count: 8}
            base_mac: {base: "0x0002c9a1b2c0", count: 8}
            vsd: ""
          error: null
devices:
  description: The device names queried, in order.
  returned: always
  type: list
  elements: str
failed_devices:
  description: Devices that could not be queried, with the reason.
  returned: always
  type: dict
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.openflint.firmware.plugins.module_utils.openflint import (
    ToolError, common_argument_spec, listed_devices, query_device)


def main():
    spec = common_argument_spec()
    spec.update(
        devices=dict(type='list', elements='str'),
        fail_on_error=dict(type='bool', default=True),
    )
    module = AnsibleModule(argument_spec=spec, supports_check_mode=True)

    try:
        devices = module.params['devices']
        if devices is None:
            devices = listed_devices(module)
    except ToolError as e:
        module.fail_json(**e.as_result())

    facts = {}
    failed = {}
    for name in devices:
        try:
            facts[name], _doc = query_device(module, name)
        except ToolError as e:
            failed[name] = str(e)
            facts[name] = {'ok': False, 'name': name, 'error': str(e)}

    result = dict(changed=False, devices=devices, failed_devices=failed,
                  ansible_facts={'openflint_devices': facts})
    if failed and module.params['fail_on_error']:
        module.fail_json(msg='%d of %d devices could not be queried: %s'
                         % (len(failed), len(devices), '; '.join('%s: %s' % kv for kv in failed.items())),
                         **result)
    module.exit_json(**result)


if __name__ == '__main__':
    main()
